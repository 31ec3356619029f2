-- fan_out_broadcast.lua: node N fixes the fan-out of a SHARDING_BROADCAST trigger (once) and
-- creates one trigger record per shard, so each shard starts exactly once.
--
-- KEYS[1]  kairos:{s}:trigger:<parentId>  HASH  the fire's own record (in N's inflight set)
--
-- ARGV[1]  parent trigger id  <jobId>:<fireMs>
-- ARGV[2]  now, epoch ms (cluster time)
-- ARGV[3]  live hosting slots at this dispatch, comma-separated, ascending ("0,2,5")
-- ARGV[4]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[5]  job trigger index prefix  kairos:{s}:jobtriggers:
-- ARGV[6]  node name N
--
-- The first call records shardTotal = n and shardSlots on the parent and creates the n shard
-- records <parentId>#<i>/<n> (state CLAIMED, the parent's job, fire time, version, attempt and
-- expiry, whether a SUCCESS needs a lifecycle reaction, fields parent/shardIndex/shardTotal), each
-- entering the job's trigger index beside the parent (the claim already keeps that index trimmed
-- and expiring; no stream event: each shard's TRIGGER_ENDED is its history). Every later call
-- (a re-send after a failed send or a failover) returns the recorded fan-out unchanged, whatever
-- the slots are now: docs/design.md "Delivery contract" fixes n and the slots at first dispatch.
--
-- Returns {n, shardSlots, state_0, ..., state_{n-1}}: the shard records' states, so the caller
--         sends only shards still CLAIMED or DISPATCHED; {0, parentState} when the parent is
--         missing or no longer CLAIMED/DISPATCHED (nothing to send).

local parentKey = KEYS[1]
local parentId, now = ARGV[1], ARGV[2]
local prefix, indexPrefix, node = ARGV[4], ARGV[5], ARGV[6]

local p = redis.call('HMGET', parentKey, 'state', 'shardTotal', 'shardSlots', 'jobId', 'fireMs',
  'scheduleVersion', 'attempt', 'term', 'quietSuccess')
local state = p[1]
if state ~= 'CLAIMED' and state ~= 'DISPATCHED' then
  return {0, state or ''}
end

local total, slots = tonumber(p[2]), p[3]
if not total then
  slots = ARGV[3]
  total = 0
  for _ in string.gmatch(slots, '[^,]+') do
    total = total + 1
  end
  redis.call('HSET', parentKey, 'shardTotal', total, 'shardSlots', slots)
  local ttl = redis.call('PTTL', parentKey)
  for i = 0, total - 1 do
    local id = parentId .. '#' .. i .. '/' .. total
    local key = prefix .. id
    if redis.call('EXISTS', key) == 0 then
      redis.call('HSET', key, 'id', id, 'jobId', p[4], 'fireMs', p[5], 'state', 'CLAIMED',
        'scheduleVersion', p[6] or '', 'attempt', p[7] or 1, 'node', node, 'term', p[8] or '',
        'claimedMs', now, 'parent', parentId, 'shardIndex', i, 'shardTotal', total,
        'quietSuccess', p[9] or '0')
      if ttl > 0 then
        redis.call('PEXPIRE', key, ttl)
      end
      redis.call('ZADD', indexPrefix .. p[4], p[5], id)
    end
  end
end

local result = {total, slots}
for i = 0, total - 1 do
  local s = redis.call('HGET', prefix .. parentId .. '#' .. i .. '/' .. total, 'state')
  result[#result + 1] = s or ''
end
return result
