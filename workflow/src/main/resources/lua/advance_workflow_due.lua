-- Moves a scheduled workflow's due entry from the fire just started to its next fire, only if it
-- still holds that fire (a concurrent write of the definition wins).
-- KEYS[1] kairos:{workflows}:due
-- ARGV[1] workflow id
-- ARGV[2] the fire ms that was started
-- ARGV[3] the next fire ms, or "" to remove the entry
-- Returns 1 moved, 0 the entry changed meanwhile.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
