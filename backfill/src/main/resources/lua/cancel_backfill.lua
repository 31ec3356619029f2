-- cancel_backfill.lua: an operator cancels a RUNNING backfill: it leaves the active set, so the
-- driver submits no further fire; fires already submitted run to their end.
--
-- KEYS[1]  kairos:{backfill}:b:<backfillId>   HASH  the backfill
-- KEYS[2]  kairos:{backfill}:active           ZSET  RUNNING backfill id -> created ms
--
-- ARGV[1]  backfill id
-- ARGV[2]  now, epoch ms
-- ARGV[3]  retention in ms: how long the cancelled backfill is kept
-- ARGV[4]  message (who cancelled)
--
-- Returns {'OK'}, {'GONE'} or {'FINAL', state} (already ended: nothing written).

local state = redis.call('HGET', KEYS[1], 'state')
if not state then
  return {'GONE'}
end
if state ~= 'RUNNING' then
  return {'FINAL', state}
end
redis.call('HSET', KEYS[1], 'state', 'CANCELLED', 'updatedMs', ARGV[2], 'finishedMs', ARGV[2],
  'message', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'OK'}
