-- ack_broadcast.lua: node N records that the broker acknowledged every open shard of a
-- SHARDING_BROADCAST trigger (see fan_out_broadcast.lua).
--
-- KEYS[1]  kairos:{s}:inflight:<N>      ZSET  (N's own key)
-- KEYS[2]  kairos:{s}:trigger:<parent>  HASH  the fire's own record
-- KEYS[3]  kairos:{s}:open              ZSET  open triggers (RedisKeys.openTriggers)
--
-- ARGV[1]  parent trigger id
-- ARGV[2]  now, epoch ms
-- ARGV[3]  the fan-out's slots, comma-separated (shard i was sent to the i-th)
-- ARGV[4]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[5], ARGV[6], ...  pairs of (shard trigger id, slot) that were sent
--
-- Each sent shard record moves CLAIMED -> DISPATCHED (dispatchedMs, slot) and enters the open
-- index like any dispatched trigger, so the lost-trigger monitor watches every shard on its own.
-- The parent leaves inflight:N and moves CLAIMED -> DISPATCHED with slot = the slot list, but it
-- does NOT enter the open index: it never runs itself (its shards do), so it must never be
-- re-dispatched as a plain trigger. Nothing ever regresses.
--
-- Returns {parentRemoved, shardsMoved}: parentRemoved 0 when the parent was no longer in
--         inflight:N (the leader moved it; its new node re-sends with the same fan-out).

local inflight, parentKey, open = KEYS[1], KEYS[2], KEYS[3]
local parentId, now, slots, prefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local moved = 0
for i = 5, #ARGV, 2 do
  local id, slot = ARGV[i], ARGV[i + 1]
  local key = prefix .. id
  if redis.call('HGET', key, 'state') == 'CLAIMED' then
    redis.call('HSET', key, 'state', 'DISPATCHED', 'dispatchedMs', now, 'slot', slot)
    redis.call('ZADD', open, now, id)
    moved = moved + 1
  end
end

local removed = redis.call('ZREM', inflight, parentId)
if removed == 1 and redis.call('HGET', parentKey, 'state') == 'CLAIMED' then
  redis.call('HSET', parentKey, 'state', 'DISPATCHED', 'dispatchedMs', now, 'slot', slots)
end
return {removed, moved}
