-- ack_dispatched.lua: node N records that the broker acknowledged the messages of a group of
-- triggers of ONE shard (one call per group: the node defers acks and sends each shard's together,
-- so one script carries many fires).
--
-- KEYS[1]  kairos:{s}:inflight:<N>   ZSET  (N's own key)
-- KEYS[2]  kairos:{s}:open           ZSET  open triggers (RedisKeys.openTriggers)
--
-- ARGV[1]  now, epoch ms (the dispatch time of an entry that gives none)
-- ARGV[2]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[3], ARGV[4], ARGV[5], ...  triples: trigger id, executor slot the message was routed to
--          ("" when not known), epoch ms the broker acknowledged it ("" = now)
--
-- Per trigger: the entry leaves inflight:N. The record moves CLAIMED -> DISPATCHED
-- (dispatchedMs, slot) and never regresses: a re-send of a trigger that is already DISPATCHED,
-- RUNNING or final leaves its state alone. A trigger that becomes DISPATCHED enters the shard's
-- open-trigger index (score = dispatch time) that the lost-trigger monitor reads. A trigger the
-- executor started before its ack was recorded (acks are deferred and grouped) only gets its
-- dispatchedMs. No stream event: the trigger's TRIGGER_ENDED event carries dispatchedMs and slot
-- to the history.
--
-- Returns one integer per trigger, in order:
--         1  the entry was in inflight:N and is removed
--         0  it was not there: the leader moved it to another node, which now owns it

local inflight, open = KEYS[1], KEYS[2]
local now, triggerPrefix = ARGV[1], ARGV[2]
local result = {}
for i = 3, #ARGV, 3 do
  local triggerId, slot, ms = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if ms == nil or ms == '' then
    ms = now
  end
  if redis.call('ZREM', inflight, triggerId) == 0 then
    result[#result + 1] = 0
  else
    local triggerKey = triggerPrefix .. triggerId
    local t = redis.call('HMGET', triggerKey, 'state', 'dispatchedMs')
    if t[1] == 'CLAIMED' then
      redis.call('HSET', triggerKey, 'state', 'DISPATCHED', 'dispatchedMs', ms, 'slot', slot)
      redis.call('ZADD', open, ms, triggerId)
    elseif t[1] and not t[2] then
      redis.call('HSET', triggerKey, 'dispatchedMs', ms)
    end
    result[#result + 1] = 1
  end
end
return result
