-- delete_job.lua: removes a job (hash, due entry, index entries) and records the deletion,
-- atomically on the job's shard. Wheel entries already claimed for it stay where they are and
-- are dropped at fire time because the job hash is gone.
--
-- KEYS[1]  kairos:{s}:job:<id>  HASH    the job
-- KEYS[2]  kairos:{s}:due       ZSET    job id -> next fire ms
-- KEYS[3]  kairos:{s}:events    STREAM  change events for persistence-sync
-- KEYS[4]  kairos:{s}:ids       ZSET    ids of the shard's jobs, score 0 (the ordered job index)
-- KEYS[5]  kairos:{s}:apps      HASH    executor app -> enabled jobs of the shard
-- KEYS[6]  kairos:{s}:appids    ZSET    '<app>:<id>' of the shard's jobs, score 0 (per-app index)
--
-- ARGV[1]  job id
-- ARGV[2]  expected version, or '' to delete whatever version is stored
-- ARGV[3]  approximate MAXLEN of the events stream
-- ARGV[4]  now, epoch ms (cluster time) for the event
--
-- Appends  type JOB_DELETED ms <now> id <id> version <v+1> scheduleVersion <sv+1>
--          (the versions the deletion would have had, so a replayed older upsert loses)
-- Returns  {'NOT_FOUND'}, {'CONFLICT', actualVersion} or {'OK', deletedVersion}

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

local id, expected, maxlen, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local cur = redis.call('HMGET', job, 'version', 'scheduleVersion', 'app', 'enabled')
if not cur[1] then
  return {'NOT_FOUND'}
end
if expected ~= '' and cur[1] ~= expected then
  return {'CONFLICT', cur[1]}
end

local version = tonumber(cur[1]) + 1
redis.call('DEL', job)
if cur[4] == 'true' then
  countApp(apps, cur[3], -1)
end
redis.call('ZREM', due, id)
redis.call('ZREM', index, id)
if cur[3] then
  redis.call('ZREM', appIndex, cur[3] .. ':' .. id)
end
redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', 'type', 'JOB_DELETED', 'ms', now,
  'id', id, 'version', version, 'scheduleVersion', tonumber(cur[2]) + 1)
return {'OK', tostring(version)}
