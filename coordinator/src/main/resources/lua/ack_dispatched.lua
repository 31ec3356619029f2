-- ack_dispatched.lua: node N records that the broker acknowledged the messages of a group of
-- triggers of ONE shard (one call per group: the acks that queued behind a call in flight go
-- together, so one script carries many fires under load).
--
-- KEYS[1]  kairos:{s}:inflight:<N>   ZSET  (N's own key)
-- KEYS[2]  kairos:{s}:events         STREAM
-- KEYS[3]  kairos:{s}:open           ZSET  open triggers (RedisKeys.openTriggers)
--
-- ARGV[1]  now, epoch ms
-- ARGV[2]  approximate MAXLEN of the events stream
-- ARGV[3]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[4], ARGV[5], ...  pairs: trigger id, executor slot the message was routed to ("" when
--          not known)
--
-- Per trigger: the entry leaves inflight:N. The record moves CLAIMED -> DISPATCHED
-- (dispatchedMs, slot) and never regresses: a re-send of a trigger that is already DISPATCHED,
-- RUNNING or final leaves the record alone. A trigger that becomes DISPATCHED enters the shard's
-- open-trigger index (score = dispatch time) that the lost-trigger monitor reads.
--
-- Returns one integer per trigger, in order:
--         1  the entry was in inflight:N and is removed
--         0  it was not there: the leader moved it to another node, which now owns it

local inflight, events, open = KEYS[1], KEYS[2], KEYS[3]
local now, maxlen, triggerPrefix = ARGV[1], ARGV[2], ARGV[3]
local result = {}
for i = 4, #ARGV, 2 do
  local triggerId, slot = ARGV[i], ARGV[i + 1]
  if redis.call('ZREM', inflight, triggerId) == 0 then
    result[#result + 1] = 0
  else
    local triggerKey = triggerPrefix .. triggerId
    local t = redis.call('HMGET', triggerKey, 'state', 'jobId')
    if t[1] == 'CLAIMED' then
      redis.call('HSET', triggerKey, 'state', 'DISPATCHED', 'dispatchedMs', now, 'slot', slot)
      redis.call('ZADD', open, now, triggerId)
      redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
        'type', 'TRIGGER_UPDATED', 'triggerId', triggerId, 'jobId', t[2],
        'state', 'DISPATCHED', 'slot', slot, 'ms', now)
    end
    result[#result + 1] = 1
  end
end
return result
