-- move_node_entries.lua: the leader moves the wheel and inflight entries of a dead node D in ONE
-- shard to live nodes, fenced by its term. Called repeatedly (bounded by a limit per call) until
-- it reports nothing left; the last call removes D from the shard's node set.
--
-- KEYS[1]  kairos:{s}:fence          STRING  highest term that wrote to the shard
-- KEYS[2]  kairos:{s}:nodes          SET     node names owning wheel/inflight keys in the shard
-- KEYS[3]  kairos:{s}:wheel:<D>      ZSET    trigger id -> fire ms
-- KEYS[4]  kairos:{s}:inflight:<D>   ZSET    trigger id -> ms taken off the wheel
-- KEYS[5]  kairos:{s}:events         STREAM
-- KEYS[6]  kairos:{s}:open           ZSET    open triggers: a dropped (final) trigger leaves it
--
-- ARGV[1]  term of the caller
-- ARGV[2]  now, epoch ms
-- ARGV[3]  dead node name D
-- ARGV[4]  limit: at most this many entries per call
-- ARGV[5]  job key prefix      kairos:{s}:job:
-- ARGV[6]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[7]  wheel key prefix    kairos:{s}:wheel:
-- ARGV[8]  approximate MAXLEN of the events stream
-- ARGV[9]  tombstone key prefix  kairos:{s}:ended:
-- ARGV[10] tombstone bucket width in ms
-- ARGV[11] T, the number of target nodes; ARGV[12..11+T] their names (live, never D)
--
-- Inflight entries go first (they were being sent when D died; they are re-sent by the target,
-- a possible duplicate publish that the executor's start claim absorbs). Every entry lands on a
-- target's wheel at its fire time, targets taken in turn; its record's node changes (no stream
-- event: the trigger's TRIGGER_ENDED carries the node that last held it). Entries whose job is
-- gone, disabled or (scheduled fires only, not ad-hoc triggers with a 'kind') at another
-- scheduleVersion are dropped (DROPPED_STALE with its TRIGGER_ENDED event, counted); entries whose
-- trigger already started or ended (its record, or only its tombstone, says so) are removed
-- without a move.
--
-- Returns {0, fence}                                          rejected: term < fence
--         {1, term, dropped, remaining, id_1, fireMs_1, target_1, ...}
--           remaining = entries of D still in this shard (call again while > 0)

local term = tonumber(ARGV[1])
local fence = tonumber(redis.call('GET', KEYS[1]) or '0')
if term < fence then
  return {0, fence}
end
if term > fence then
  redis.call('SET', KEYS[1], term)
end

local nodes, wheel, inflight, events = KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local now, dead, limit = ARGV[2], ARGV[3], tonumber(ARGV[4])
local jobPrefix, triggerPrefix, wheelPrefix, maxlen = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local endedPrefix, bucketMs = ARGV[9], tonumber(ARGV[10])
local targets = {}
for t = 1, tonumber(ARGV[11]) do
  local target = ARGV[11 + t]
  if target == dead then
    return redis.error_reply('dead node ' .. dead .. ' cannot be a move target')
  end
  targets[t] = target
end
if #targets == 0 then
  return redis.error_reply('no live target node to move ' .. dead .. ' entries to')
end

local result = {1, term, 0, 0}
local dropped, moved = 0, 0

local function move(source, triggerId)
  redis.call('ZREM', source, triggerId)
  local triggerKey = triggerPrefix .. triggerId
  local t = redis.call('HMGET', triggerKey, 'jobId', 'scheduleVersion', 'state', 'kind')
  local adhoc = t[4] and t[4] ~= 'SCHEDULED'
  local jobId = t[1] or string.match(triggerId, '^([^:]+):')
  local state = t[3]
  if state and state ~= 'CLAIMED' and state ~= 'DISPATCHED' then
    return
  end
  local idFire = string.match(triggerId, '^[^:]+:(%d+)')
  if not state and idFire and redis.call('HEXISTS',
      endedPrefix .. math.floor(tonumber(idFire) / bucketMs), triggerId) == 1 then
    return -- ended, synced and compacted: only its tombstone is left
  end
  local j = redis.call('HMGET', jobPrefix .. jobId, 'scheduleVersion', 'enabled')
  local reason = nil
  if not state then
    reason = 'trigger record missing'
  elseif not j[1] then
    reason = 'job deleted'
  elseif j[2] == 'false' or j[2] == '0' then
    reason = 'job disabled'
  elseif j[1] ~= t[2] and not adhoc then
    reason = 'schedule version ' .. tostring(t[2]) .. ' is now ' .. j[1]
  end
  if reason then
    local event = {'type', 'TRIGGER_ENDED', 'triggerId', triggerId, 'jobId', jobId}
    if state then
      redis.call('HSET', triggerKey, 'state', 'DROPPED_STALE', 'endedMs', now, 'message', reason)
      local fields = redis.call('HGETALL', triggerKey)
      for k = 1, #fields, 2 do
        local name = fields[k]
        if name ~= 'id' and name ~= 'jobId' and name ~= 'quietSuccess' and name ~= 'targetSlot' then
          event[#event + 1] = name
          event[#event + 1] = fields[k + 1]
        end
      end
    else
      local rest = {'fireMs', idFire or '', 'state', 'DROPPED_STALE', 'endedMs', now,
        'message', reason}
      for k = 1, #rest do
        event[#event + 1] = rest[k]
      end
    end
    event[#event + 1] = 'ms'
    event[#event + 1] = now
    redis.call('ZREM', KEYS[6], triggerId)
    redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', unpack(event))
    dropped = dropped + 1
    return
  end
  local fireMs = redis.call('HGET', triggerKey, 'fireMs') or string.match(triggerId, '^[^:]+:(%d+)')
  local target = targets[(moved % #targets) + 1]
  moved = moved + 1
  redis.call('ZADD', wheelPrefix .. target, fireMs, triggerId)
  redis.call('SADD', nodes, target)
  redis.call('HSET', triggerKey, 'node', target)
  result[#result + 1] = triggerId
  result[#result + 1] = fireMs
  result[#result + 1] = target
end

local budget = limit
for _, key in ipairs({inflight, wheel}) do
  if budget > 0 then
    local ids = redis.call('ZRANGE', key, 0, budget - 1)
    for _, triggerId in ipairs(ids) do
      move(key, triggerId)
    end
    budget = budget - #ids
  end
end

local remaining = redis.call('ZCARD', wheel) + redis.call('ZCARD', inflight)
if remaining == 0 then
  redis.call('SREM', nodes, dead)
end
result[3] = dropped
result[4] = remaining
return result
