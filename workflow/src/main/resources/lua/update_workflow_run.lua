-- Writes a run's next state if nobody wrote it since it was read (compare-and-set on rev).
-- KEYS[1] kairos:{wfrun:<runId>}:run
-- ARGV[1] the revision that was read
-- ARGV[2] the run JSON after the step
-- ARGV[3] retention ms once the run ended, or "0" while it runs
-- Returns 1 written, 0 the revision moved (read again and retry), -2 the run is gone.
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return -2 end
if rev ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'run', ARGV[2], 'rev', tonumber(rev) + 1)
if tonumber(ARGV[3]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1
