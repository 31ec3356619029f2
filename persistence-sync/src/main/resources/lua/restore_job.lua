-- restore_job.lua: puts one job loaded from PostgreSQL back into an emptied Redis shard, unless
-- the job already exists there (Redis is the source of truth: a job written through the API
-- after the data loss is newer than PostgreSQL's copy and is kept).
--
-- KEYS[1]  kairos:{s}:job:<id>  HASH  the job
-- KEYS[2]  kairos:{s}:due       ZSET  job id -> next fire ms
-- KEYS[3]  kairos:{s}:ids       ZSET  ids of the shard's jobs, score 0 (core's ordered job index)
-- KEYS[4]  kairos:{s}:apps      HASH  executor app -> enabled jobs of the shard (core's count)
-- KEYS[5]  kairos:{s}:appids    ZSET  '<app>:<id>' of the shard's jobs, score 0 (core's per-app index)
--
-- ARGV[1]  job id
-- ARGV[2]  next fire, epoch ms, or '' when the job is not scheduled
-- ARGV[3..] field, value pairs of the job hash
--
-- Returns 1 when restored, 0 when the job already existed (nothing written)

if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local fields = {}
for i = 3, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[3], 0, ARGV[1])
local stored = redis.call('HMGET', KEYS[1], 'app', 'enabled')
if stored[1] then
  redis.call('ZADD', KEYS[5], 0, stored[1] .. ':' .. ARGV[1])
end
if stored[2] == 'true' and stored[1] and stored[1] ~= '' then
  redis.call('HINCRBY', KEYS[4], stored[1], 1)
end
if ARGV[2] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  redis.call('HSET', KEYS[1], 'nextFireMs', ARGV[2])
end
return 1
