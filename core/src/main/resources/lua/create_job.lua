-- create_job.lua: writes a new job, schedules its first fire and records the change, atomically
-- on the job's shard.
--
-- KEYS[1]  kairos:{s}:job:<id>  HASH    the job
-- KEYS[2]  kairos:{s}:due       ZSET    job id -> next fire ms
-- KEYS[3]  kairos:{s}:events    STREAM  change events for persistence-sync
-- KEYS[4]  kairos:{s}:ids       ZSET    ids of the shard's jobs, score 0 (the ordered job index)
-- KEYS[5]  kairos:{s}:apps      HASH    executor app -> enabled jobs of the shard
-- KEYS[6]  kairos:{s}:appids    ZSET    '<app>:<id>' of the shard's jobs, score 0 (per-app index)
--
-- ARGV[1]  job id
-- ARGV[2]  first fire, epoch ms, or '' when the job is not scheduled (API-only or disabled)
-- ARGV[3]  approximate MAXLEN of the events stream
-- ARGV[4]  now, epoch ms (cluster time) for the event
-- ARGV[5..] field, value pairs of the job hash (version and scheduleVersion already 1)
--
-- Appends  type JOB_UPSERTED ms <now> <every field of the stored hash>
-- Returns  {'EXISTS'} when a job with this id exists (nothing is written),
--          otherwise {'OK', field1, value1, ...} (the stored hash)

local job, due, events, index, apps, appIndex = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5],
  KEYS[6]

-- Keeps kairos:{s}:apps (enabled jobs per executor app) in step with the job's enabled flag.
local function countApp(apps, app, delta)
  if app and app ~= '' then
    if redis.call('HINCRBY', apps, app, delta) <= 0 then
      redis.call('HDEL', apps, app)
    end
  end
end

local id, score, maxlen, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

if redis.call('EXISTS', job) == 1 then
  return {'EXISTS'}
end

local fields = {}
for i = 5, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', job, unpack(fields))
if score ~= '' then
  redis.call('ZADD', due, score, id)
  redis.call('HSET', job, 'nextFireMs', score)
end
redis.call('ZADD', index, 0, id)
local stored = redis.call('HMGET', job, 'app', 'enabled')
redis.call('ZADD', appIndex, 0, stored[1] .. ':' .. id)
if stored[2] == 'true' then
  countApp(apps, stored[1], 1)
end

local hash = redis.call('HGETALL', job)
redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', 'type', 'JOB_UPSERTED', 'ms', now,
  unpack(hash))
local result = {'OK'}
for i = 1, #hash do
  result[#result + 1] = hash[i]
end
return result
