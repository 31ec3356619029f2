-- ack_dispatched.lua: node N records that the broker acknowledged a trigger's message.
--
-- KEYS[1]  kairos:{s}:inflight:<N>   ZSET  (N's own key)
-- KEYS[2]  kairos:{s}:trigger:<id>   HASH  the trigger record
-- KEYS[3]  kairos:{s}:events         STREAM
-- KEYS[4]  kairos:{s}:open           ZSET  open triggers (RedisKeys.openTriggers)
--
-- ARGV[1]  trigger id
-- ARGV[2]  now, epoch ms
-- ARGV[3]  executor slot the message was routed to ("" when not known)
-- ARGV[4]  approximate MAXLEN of the events stream
--
-- The entry leaves inflight:N. The record moves CLAIMED -> DISPATCHED (dispatchedMs, slot) and
-- never regresses: a re-send of a trigger that is already DISPATCHED, RUNNING or final leaves
-- the record alone. A trigger that becomes DISPATCHED enters the shard's open-trigger index
-- (score = dispatch time) that the lost-trigger monitor reads.
--
-- Returns 1  the entry was in inflight:N and is removed
--         0  it was not there: the leader moved it to another node, which now owns it

if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then
  return 0
end
local state = redis.call('HGET', KEYS[2], 'state')
if state == 'CLAIMED' then
  redis.call('HSET', KEYS[2], 'state', 'DISPATCHED', 'dispatchedMs', ARGV[2], 'slot', ARGV[3])
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], '*',
    'type', 'TRIGGER_UPDATED', 'triggerId', ARGV[1],
    'jobId', redis.call('HGET', KEYS[2], 'jobId'),
    'state', 'DISPATCHED', 'slot', ARGV[3], 'ms', ARGV[2])
end
return 1
