-- ack_dispatched.lua: node N records that the broker acknowledged the messages of groups of
-- triggers of one or more shards (the node defers acks and sends them together, so one script
-- carries many fires: every shard's on a single Redis server, one shard's in Redis Cluster).
--
-- KEYS, 3 per shard g = 1..G, in the order of the shard sections in ARGV:
--   kairos:{s}:inflight:<N>   ZSET  (N's own key)
--   kairos:{s}:events         STREAM
--   kairos:{s}:open           ZSET  open triggers (RedisKeys.openTriggers)
--
-- ARGV[1]  now, epoch ms (the dispatch time of an entry that gives none)
-- ARGV[2]  approximate MAXLEN of the events stream
-- ARGV[3..] per shard g, a section: trigger key prefix kairos:{s}:trigger:, count n, then n
--          triples: trigger id, executor slot the message was routed to ("" when not known),
--          epoch ms the broker acknowledged it ("" = now)
--
-- Per trigger: the entry leaves inflight:N. The record moves CLAIMED -> DISPATCHED
-- (dispatchedMs, slot) and never regresses: a re-send of a trigger that is already DISPATCHED,
-- RUNNING or final leaves its state alone. A trigger that becomes DISPATCHED enters the shard's
-- open-trigger index (score = dispatch time) that the lost-trigger monitor reads. A trigger the
-- executor started before its ack was recorded (acks are deferred and grouped) only gets its
-- dispatchedMs, with no event: its final event carries it to the history.
--
-- Returns one integer per trigger, in ARGV order:
--         1  the entry was in inflight:N and is removed
--         0  it was not there: the leader moved it to another node, which now owns it

local now, maxlen = ARGV[1], ARGV[2]
local result = {}

local function ack(inflight, events, open, triggerPrefix, triggerId, slot, ms)
  if ms == nil or ms == '' then
    ms = now
  end
  if redis.call('ZREM', inflight, triggerId) == 0 then
    result[#result + 1] = 0
    return
  end
  local triggerKey = triggerPrefix .. triggerId
  local t = redis.call('HMGET', triggerKey, 'state', 'jobId', 'dispatchedMs')
  if t[1] == 'CLAIMED' then
    redis.call('HSET', triggerKey, 'state', 'DISPATCHED', 'dispatchedMs', ms, 'slot', slot)
    redis.call('ZADD', open, ms, triggerId)
    redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
      'type', 'TRIGGER_UPDATED', 'triggerId', triggerId, 'jobId', t[2],
      'state', 'DISPATCHED', 'slot', slot, 'ms', ms)
  elseif t[1] and not t[3] then
    redis.call('HSET', triggerKey, 'dispatchedMs', ms)
  end
  result[#result + 1] = 1
end

local a = 3
for g = 1, #KEYS / 3 do
  local k = 3 * (g - 1)
  local prefix, n = ARGV[a], tonumber(ARGV[a + 1])
  a = a + 2
  for _ = 1, n do
    ack(KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], prefix, ARGV[a], ARGV[a + 1], ARGV[a + 2])
    a = a + 3
  end
end
return result
