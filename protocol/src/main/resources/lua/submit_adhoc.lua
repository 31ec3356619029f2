-- submit_adhoc.lua: records an ad-hoc trigger (manual, retry, child) for the leader's scan to
-- claim, idempotently by trigger id, atomically on the job's shard.
--
-- KEYS[1]  kairos:{s}:adhoc                 ZSET  trigger id -> due ms
-- KEYS[2]  kairos:{s}:adhocreq:<triggerId>  HASH  the request until it is claimed
-- KEYS[3]  kairos:{s}:trigger:<triggerId>   HASH  the trigger record (exists once claimed)
-- KEYS[4]  kairos:{s}:job:<jobId>           HASH  the job
--
-- ARGV[1]  trigger id
-- ARGV[2]  job id
-- ARGV[3]  due, epoch ms
-- ARGV[4]  attempt (1, or n + 1 for retry n)
-- ARGV[5]  kind: MANUAL | RETRY | CHILD
-- ARGV[6]  child chain depth
-- ARGV[7]  now, epoch ms (cluster time): requestedMs
-- ARGV[8]  parent trigger id, '' for none
-- ARGV[9]  schedule version the chain was claimed under, '' for none (FIXED_DELAY re-arm)
-- ARGV[10] '1' when ARGV[11] overrides the job's params, '0' otherwise
-- ARGV[11] params override
-- ARGV[12] executor slot the trigger must go to (a "trigger now" on a chosen slot), '' for none
--
-- A trigger id already waiting or already claimed is not written again: a replayed request is
-- harmless. The job must exist and be enabled when submitted (and still is checked at fire time).
--
-- Returns {'OK'}, {'DUPLICATE'}, {'JOB_NOT_FOUND'} or {'JOB_DISABLED'}; only 'OK' wrote anything.

local adhoc, request, trigger, job = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

if redis.call('ZSCORE', adhoc, ARGV[1]) or redis.call('EXISTS', trigger) == 1 then
  return {'DUPLICATE'}
end
local enabled = redis.call('HGET', job, 'enabled')
if not enabled then
  return {'JOB_NOT_FOUND'}
end
if enabled ~= 'true' then
  return {'JOB_DISABLED'}
end

local fields = {'jobId', ARGV[2], 'attempt', ARGV[4], 'kind', ARGV[5], 'depth', ARGV[6],
  'requestedMs', ARGV[7]}
if ARGV[8] ~= '' then
  fields[#fields + 1] = 'parentTriggerId'
  fields[#fields + 1] = ARGV[8]
end
if ARGV[9] ~= '' then
  fields[#fields + 1] = 'scheduleVersion'
  fields[#fields + 1] = ARGV[9]
end
if ARGV[10] == '1' then
  fields[#fields + 1] = 'params'
  fields[#fields + 1] = ARGV[11]
end
if ARGV[12] and ARGV[12] ~= '' then
  fields[#fields + 1] = 'targetSlot'
  fields[#fields + 1] = ARGV[12]
end
redis.call('HSET', request, unpack(fields))
redis.call('ZADD', adhoc, ARGV[3], ARGV[1])
return {'OK'}
