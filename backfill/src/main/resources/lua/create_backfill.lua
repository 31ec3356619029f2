-- create_backfill.lua: records a new backfill, or finds the one with the same id (the id is
-- deterministic from job, from and to, so asking twice creates one).
--
-- KEYS[1]  kairos:{backfill}:b:<backfillId>   HASH  the backfill (BackfillStore's fields)
-- KEYS[2]  kairos:{backfill}:active           ZSET  RUNNING backfill id -> created ms
-- KEYS[3]  kairos:{backfill}:job:<jobId>      ZSET  the job's backfill ids -> created ms
--
-- ARGV[1]  backfill id
-- ARGV[2]  created, epoch ms
-- ARGV[3]  how many backfill ids the job index keeps (the newest)
-- ARGV[4], ARGV[5], ...  field, value pairs of the new hash (state RUNNING, rev 0 included)
--
-- Returns 1 when created, 0 when a backfill with this id exists (nothing written).

if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local fields = {}
for i = 4, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
local keep = tonumber(ARGV[3])
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -(keep + 1))
return 1
