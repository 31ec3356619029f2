-- save_backfill_progress.lua: the leader's driver records one step of a RUNNING backfill (its
-- cursor, in-flight fires and counters, and its final state when it ends) in one call, only if
-- nothing else wrote it since the driver read it.
--
-- KEYS[1]  kairos:{backfill}:b:<backfillId>   HASH  the backfill
-- KEYS[2]  kairos:{backfill}:active           ZSET  RUNNING backfill id -> created ms
--
-- ARGV[1]  backfill id
-- ARGV[2]  the revision (field rev) the driver read
-- ARGV[3]  the state after this step: RUNNING, or SUCCEEDED | FAILED when it ends
-- ARGV[4]  now, epoch ms
-- ARGV[5]  retention in ms: how long a final backfill is kept
-- ARGV[6], ARGV[7], ...  field, value pairs to set (cursorMs, inflight, submitted, succeeded,
--          failed, message)
--
-- A backfill no longer RUNNING (cancelled meanwhile) or written since (another leader's step)
-- is left as it is: the step's submissions were idempotent ad-hoc triggers, and the next step
-- starts from what is stored. An ending step leaves the active set and starts the retention.
--
-- Returns {'OK'}, {'GONE'}, {'FINAL', state} or {'STALE', rev}.

local t = redis.call('HMGET', KEYS[1], 'state', 'rev')
if not t[1] then
  return {'GONE'}
end
if t[1] ~= 'RUNNING' then
  return {'FINAL', t[1]}
end
if (t[2] or '0') ~= ARGV[2] then
  return {'STALE', t[2] or '0'}
end
local fields = {'state', ARGV[3], 'updatedMs', ARGV[4], 'rev', tostring(tonumber(ARGV[2]) + 1)}
for i = 6, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', KEYS[1], unpack(fields))
if ARGV[3] ~= 'RUNNING' then
  redis.call('HSET', KEYS[1], 'finishedMs', ARGV[4])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
return {'OK'}
