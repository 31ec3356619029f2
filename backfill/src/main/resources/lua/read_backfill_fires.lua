-- read_backfill_fires.lua: the leader's backfill driver reads how its in-flight fires stand, each
-- fire's record and its ad-hoc entry in one atomic read. The leader's claim (claim_fires.lua)
-- takes a fire off the ad-hoc set and writes its record in one script; two separate reads could
-- fall on each side of it and find neither, and count a just-claimed fire as gone. Read-only.
--
-- KEYS[1]      kairos:{s}:adhoc               ZSET  ad-hoc trigger id -> due ms
-- KEYS[1 + i]  kairos:{s}:trigger:<id i>      HASH  fire i's record (exists once claimed)
--              (every key in the one shard s: the fires of one job)
--
-- ARGV[i]      fire i's trigger id, i = 1..#ARGV
--
-- Returns, per fire, three strings: its record's state ('' when none), its record's attempt
-- ('' when none), and 'R' when its record exists, 'W' when it has none and waits in the ad-hoc
-- set (submitted, not claimed yet), '-' when it has neither.

local out = {}
for i = 1, #ARGV do
  local record = KEYS[i + 1]
  local f = redis.call('HMGET', record, 'state', 'attempt')
  local where = 'R'
  if not f[1] and redis.call('EXISTS', record) == 0 then
    if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
      where = 'W'
    else
      where = '-'
    end
  end
  out[#out + 1] = f[1] or ''
  out[#out + 1] = f[2] or ''
  out[#out + 1] = where
end
return out
