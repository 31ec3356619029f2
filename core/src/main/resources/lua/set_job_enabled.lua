-- set_job_enabled.lua: enables or disables a job and records the change, atomically on the
-- job's shard. Setting the state it already has writes nothing.
--
-- KEYS[1]  kairos:{s}:job:<id>  HASH    the job
-- KEYS[2]  kairos:{s}:due       ZSET    job id -> next fire ms
-- KEYS[3]  kairos:{s}:events    STREAM  change events for persistence-sync
-- KEYS[4]  kairos:{s}:apps      HASH    executor app -> enabled jobs of the shard
--
-- ARGV[1]  job id
-- ARGV[2]  'true' to enable, 'false' to disable
-- ARGV[3]  when enabling: first fire from now, epoch ms, or '' when the schedule has none
-- ARGV[4]  when enabling: the scheduleVersion ARGV[3] was computed for
-- ARGV[5]  approximate MAXLEN of the events stream
-- ARGV[6]  now, epoch ms (cluster time): updatedMs and the event
--
-- Disabling leaves the due ZSET; fires already claimed are dropped when they are taken or start
-- while the job is disabled (take_due, claim_start read 'enabled'). It keeps scheduleVersion: a
-- fire claimed before a disable and due after the re-enable still runs (the schedule did not
-- change), and the re-enabled job's next claim finds that fire claimed (a duplicate, skipped).
-- Enabling puts the job back at ARGV[3]. version goes up by one either way.
--
-- Appends  type JOB_UPSERTED ms <now> <every field of the stored hash>
-- Returns  {'NOT_FOUND'}; {'RETRY'} when enabling and the schedule changed since ARGV[3] was
--          computed; {'UNCHANGED', field1, value1, ...}; or {'OK', field1, value1, ...}

local job, due, events, apps = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

-- Keeps kairos:{s}:apps (enabled jobs per executor app) in step with the job's enabled flag.
local function countApp(apps, app, delta)
  if app and app ~= '' then
    if redis.call('HINCRBY', apps, app, delta) <= 0 then
      redis.call('HDEL', apps, app)
    end
  end
end

local id, enable, score, forVersion, maxlen, now =
  ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]

local cur = redis.call('HMGET', job, 'version', 'scheduleVersion', 'enabled', 'app')
if not cur[1] then
  return {'NOT_FOUND'}
end

local function withHash(status)
  local hash = redis.call('HGETALL', job)
  local result = {status}
  for i = 1, #hash do
    result[#result + 1] = hash[i]
  end
  return result, hash
end

if cur[3] == enable then
  return (withHash('UNCHANGED'))
end

if enable == 'true' then
  if cur[2] ~= forVersion then
    return {'RETRY'}
  end
  if score ~= '' then
    redis.call('ZADD', due, score, id)
    redis.call('HSET', job, 'nextFireMs', score)
  end
  redis.call('HSET', job, 'enabled', 'true')
  countApp(apps, cur[4], 1)
else
  redis.call('ZREM', due, id)
  redis.call('HDEL', job, 'nextFireMs')
  redis.call('HSET', job, 'enabled', 'false')
  countApp(apps, cur[4], -1)
end
redis.call('HSET', job, 'version', tonumber(cur[1]) + 1, 'updatedMs', now)

local result, hash = withHash('OK')
redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', 'type', 'JOB_UPSERTED', 'ms', now,
  unpack(hash))
return result
