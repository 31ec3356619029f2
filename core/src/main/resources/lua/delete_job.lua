-- delete_job.lua: removes a job (hash, due entry, index entry) and records the deletion,
-- atomically on the job's shard. Wheel entries already claimed for it stay where they are and
-- are dropped at fire time because the job hash is gone.
--
-- KEYS[1]  kairos:{s}:job:<id>  HASH    the job
-- KEYS[2]  kairos:{s}:due       ZSET    job id -> next fire ms
-- KEYS[3]  kairos:{s}:events    STREAM  change events for persistence-sync
-- KEYS[4]  kairos:{s}:jobs      SET     ids of the shard's jobs
--
-- ARGV[1]  job id
-- ARGV[2]  expected version, or '' to delete whatever version is stored
-- ARGV[3]  approximate MAXLEN of the events stream
-- ARGV[4]  now, epoch ms (cluster time) for the event
--
-- Appends  type JOB_DELETED ms <now> id <id> version <v+1> scheduleVersion <sv+1>
--          (the versions the deletion would have had, so a replayed older upsert loses)
-- Returns  {'NOT_FOUND'}, {'CONFLICT', actualVersion} or {'OK', deletedVersion}

local job, due, events, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, expected, maxlen, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local cur = redis.call('HMGET', job, 'version', 'scheduleVersion')
if not cur[1] then
  return {'NOT_FOUND'}
end
if expected ~= '' and cur[1] ~= expected then
  return {'CONFLICT', cur[1]}
end

local version = tonumber(cur[1]) + 1
redis.call('DEL', job)
redis.call('ZREM', due, id)
redis.call('SREM', index, id)
redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', 'type', 'JOB_DELETED', 'ms', now,
  'id', id, 'version', version, 'scheduleVersion', tonumber(cur[2]) + 1)
return {'OK', tostring(version)}
