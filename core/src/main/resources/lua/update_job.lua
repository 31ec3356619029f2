-- update_job.lua: replaces a job's user-defined fields if its version is the expected one, moves
-- it in the due ZSET when its schedule or enabled state changed, and records the change,
-- atomically on the job's shard.
--
-- KEYS[1]  kairos:{s}:job:<id>  HASH    the job
-- KEYS[2]  kairos:{s}:due       ZSET    job id -> next fire ms
-- KEYS[3]  kairos:{s}:events    STREAM  change events for persistence-sync
-- KEYS[4]  kairos:{s}:apps      HASH    executor app -> enabled jobs of the shard
-- KEYS[5]  kairos:{s}:ids       ZSET    ids of the shard's jobs, score 0 (the ordered job index)
-- KEYS[6]  kairos:{s}:appids    ZSET    '<app>:<id>' of the shard's jobs, score 0 (per-app index)
--
-- ARGV[1]  job id
-- ARGV[2]  expected version (optimistic concurrency)
-- ARGV[3]  first fire of the new schedule from now, epoch ms, or '' when it has none
-- ARGV[4]  approximate MAXLEN of the events stream
-- ARGV[5]  now, epoch ms (cluster time) for the event
-- ARGV[6..] field, value pairs of the user-defined fields and updatedMs (never id, version,
--           scheduleVersion, createdMs or the runtime fields)
--
-- version goes up by one. scheduleVersion goes up by one when scheduleType, schedule, zone or
-- cronDialect changed (a hash written before dialects has none: it reads as KAIROS), or when the
-- job goes from enabled to disabled: wheel entries claimed under the old
-- version are then dropped at fire time. The due ZSET:
--   disabled, or no fire                      -> removed
--   schedule changed, or re-enabled           -> ARGV[3]
--   otherwise (e.g. a params-only change)     -> untouched, so claimed fires and a parked
--                                                FIXED_DELAY job are left as they are
-- The job's entry in the per-app index moves with its app; both index entries are (re)written, so
-- an update also indexes a job that an upgrade left out of them.
--
-- Appends  type JOB_UPSERTED ms <now> <every field of the stored hash>
-- Returns  {'NOT_FOUND'}, {'CONFLICT', actualVersion}, or {'OK', field1, value1, ...}

local job, due, events, apps, index, appIndex = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5],
  KEYS[6]

-- Keeps kairos:{s}:apps (enabled jobs per executor app) in step with the job's enabled flag.
local function countApp(apps, app, delta)
  if app and app ~= '' then
    if redis.call('HINCRBY', apps, app, delta) <= 0 then
      redis.call('HDEL', apps, app)
    end
  end
end

local id, expected, score, maxlen, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]

local cur = redis.call('HMGET', job,
  'version', 'scheduleVersion', 'scheduleType', 'schedule', 'zone', 'enabled', 'app',
  'cronDialect')
if not cur[1] then
  return {'NOT_FOUND'}
end
if cur[1] ~= expected then
  return {'CONFLICT', cur[1]}
end

local new, fields = {}, {}
for i = 6, #ARGV, 2 do
  new[ARGV[i]] = ARGV[i + 1]
  fields[#fields + 1] = ARGV[i]
  fields[#fields + 1] = ARGV[i + 1]
end
local changed = new['scheduleType'] ~= cur[3] or new['schedule'] ~= cur[4]
  or new['zone'] ~= cur[5]
  or (new['cronDialect'] or 'KAIROS') ~= (cur[8] or 'KAIROS')
local wasEnabled = cur[6] == 'true'
local isEnabled = new['enabled'] == 'true'
local scheduleVersion = tonumber(cur[2])
if changed or (wasEnabled and not isEnabled) then
  scheduleVersion = scheduleVersion + 1
end

redis.call('HSET', job, unpack(fields))
redis.call('HSET', job, 'version', tonumber(cur[1]) + 1, 'scheduleVersion', scheduleVersion)
-- The app may have changed too: take the job off its old app's count, put it on the new one's.
if wasEnabled then
  countApp(apps, cur[7], -1)
end
local app = redis.call('HGET', job, 'app')
if isEnabled then
  countApp(apps, app, 1)
end
if cur[7] and cur[7] ~= app then
  redis.call('ZREM', appIndex, cur[7] .. ':' .. id)
end
redis.call('ZADD', appIndex, 0, app .. ':' .. id)
redis.call('ZADD', index, 0, id)
if not isEnabled or score == '' then
  redis.call('ZREM', due, id)
  redis.call('HDEL', job, 'nextFireMs')
elseif changed or not wasEnabled then
  redis.call('ZADD', due, score, id)
  redis.call('HSET', job, 'nextFireMs', score)
end

local hash = redis.call('HGETALL', job)
redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', 'type', 'JOB_UPSERTED', 'ms', now,
  unpack(hash))
local result = {'OK'}
for i = 1, #hash do
  result[#result + 1] = hash[i]
end
return result
