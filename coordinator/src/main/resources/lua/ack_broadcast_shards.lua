-- ack_broadcast_shards.lua: the broker acknowledged the messages of a broadcast's shards; each
-- shard record moves CLAIMED -> DISPATCHED (dispatchedMs, slot) and never regresses. The parent's
-- own record is acknowledged separately by ack_dispatched.lua once every shard was sent.
--
-- KEYS[1]  kairos:{s}:events   STREAM
--
-- ARGV[1]  now, epoch ms
-- ARGV[2]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[3]  approximate MAXLEN of the events stream
-- ARGV[4], ARGV[5], ...  pairs of (shard trigger id, slot)
--
-- Returns how many shard records moved to DISPATCHED.

local events, now, prefix, maxlen = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local moved = 0
for i = 4, #ARGV, 2 do
  local id, slot = ARGV[i], ARGV[i + 1]
  local key = prefix .. id
  if redis.call('HGET', key, 'state') == 'CLAIMED' then
    redis.call('HSET', key, 'state', 'DISPATCHED', 'dispatchedMs', now, 'slot', slot)
    redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
      'type', 'TRIGGER_UPDATED', 'triggerId', id, 'jobId', redis.call('HGET', key, 'jobId'),
      'state', 'DISPATCHED', 'slot', slot, 'ms', now)
    moved = moved + 1
  end
end
return moved
