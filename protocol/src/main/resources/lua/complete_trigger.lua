-- complete_trigger: record how a group of started triggers ended, without ever regressing a
-- final state (the ends that queued behind a call in flight go together). On one Redis server a
-- group may span shards; on Redis Cluster it is one shard's (ShardedCall lays it out).
--
-- Per shard s of the group, in order, two KEYS:
--   the shard's STREAM kairos:{s}:events
--   the shard's open-trigger ZSET kairos:{s}:open (a final trigger leaves it)
-- ARGV[1]  dedup window D in ms
-- ARGV[2]  approximate MAXLEN of the events stream
-- ARGV[3]  tombstone bucket width in ms (RedisKeys.ENDED_BUCKET_MS)
-- then per shard, in the order of KEYS:
--   trigger key prefix   kairos:{s}:trigger:   (the record HASH, fields: TriggerFields)
--   tombstone prefix     kairos:{s}:ended:
--   n, the number of its triggers, then n groups of 6:
--     trigger id, job id, scheduled fire time (epoch ms; used when the record has none), executor
--     instance id (must be the one that started it), final state (SUCCESS | FAIL | TIMEOUT |
--     DISCARDED | CANCELLED; CANCELLED: the executor interrupted the run because an operator
--     cancelled it), message (already bounded by the caller)
--
-- Outcomes per trigger:
--   RUNNING by this executor            -> final state, endedMs, message            => COMPLETED
--   RUNNING by another executor         -> unchanged                                => NOT_OWNER
--   CLAIMED | DISPATCHED and DISCARDED  -> DISCARDED (the block strategy dropped it) => COMPLETED
--   CLAIMED | DISPATCHED otherwise      -> unchanged (nothing can end unstarted)     => NOT_STARTED
--   final, same state, same executor    -> unchanged (a retried call)               => ALREADY
--   final otherwise, this executor      -> field lateResult = state|endedMs|message  => LATE
--     (e.g. LOST by the lost-trigger monitor while this executor was paused); once only: when
--     lateResult is already there, unchanged and no event => LATE (the same run's result again:
--     the scheduler's result consumer completes every result a second time, and retries)
--   final, another executor             -> unchanged                                => NOT_OWNER
--   record gone, its tombstone there (ended in SUCCESS, synced, compacted) -> unchanged
--                                                                                  => ALREADY
--   record missing (expired after D, or lost in a failover) -> recreated final      => RECREATED
-- A final state appends the trigger's one TRIGGER_ENDED event, carrying every field of its record
-- (claim, dispatch, start and end), and keeps the record D past the change; a SUCCESS whose record
-- says quietSuccess=1 (claim_fires: no child jobs, not FIXED_DELAY) adds quiet=1, so the lifecycle
-- knows it needs no reaction. A late result appends TRIGGER_LATE (state, executor, endedMs,
-- message of the late result).
--
-- Returns, per trigger in the order of ARGV, {outcome, nowMs, state found ('' when missing)}.
redis.replicate_commands()

local window = tonumber(ARGV[1])
local maxlen = ARGV[2]
local bucketMs = tonumber(ARGV[3])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local function complete(events, open, prefix, endedPrefix, id, job, fireArg, executor, final,
    message)
  local key = prefix .. id
  local found = redis.call('HMGET', key, 'state', 'fireMs', 'executor', 'quietSuccess')
  local state, executorFound = found[1], found[3]
  local fire = tonumber(found[2]) or tonumber(fireArg)

  local function finish(outcome)
    redis.call('HSET', key, 'state', final, 'executor', executor, 'endedMs', tostring(now),
      'message', message)
    redis.call('PEXPIREAT', key, math.max(fire + window, now + window))
    redis.call('ZREM', open, id)
    local fields = redis.call('HGETALL', key)
    local event = {'type', 'TRIGGER_ENDED', 'triggerId', id, 'jobId', job}
    for k = 1, #fields, 2 do
      local name = fields[k]
      if name ~= 'id' and name ~= 'jobId' and name ~= 'quietSuccess' and name ~= 'targetSlot' then
        event[#event + 1] = name
        event[#event + 1] = fields[k + 1]
      end
    end
    if final == 'SUCCESS' and found[4] == '1' then
      event[#event + 1] = 'quiet'
      event[#event + 1] = '1'
    end
    event[#event + 1] = 'ms'
    event[#event + 1] = tostring(now)
    redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', unpack(event))
    return {outcome, now, state or ''}
  end

  if not state then
    local tomb = redis.call('HGET', endedPrefix .. math.floor(fire / bucketMs), id)
    if tomb then
      return {'ALREADY', now, tomb}
    end
    redis.call('HSET', key, 'id', id, 'jobId', job, 'fireMs', tostring(fire), 'recreated', '1')
    return finish('RECREATED')
  end

  if state == 'RUNNING' then
    if executorFound ~= executor then
      return {'NOT_OWNER', now, state}
    end
    return finish('COMPLETED')
  end

  if state == 'CLAIMED' or state == 'DISPATCHED' then
    if final == 'DISCARDED' then
      return finish('COMPLETED')
    end
    return {'NOT_STARTED', now, state}
  end

  if executorFound ~= executor then
    return {'NOT_OWNER', now, state}
  end
  if state == final then
    return {'ALREADY', now, state}
  end
  if redis.call('HEXISTS', key, 'lateResult') == 1 then
    return {'LATE', now, state}
  end
  redis.call('HSET', key, 'lateResult', final .. '|' .. now .. '|' .. message)
  redis.call('PEXPIREAT', key, math.max(fire + window, now + window))
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
    'type', 'TRIGGER_LATE', 'triggerId', id, 'jobId', job, 'fireMs', tostring(fire),
    'state', final, 'executor', executor, 'endedMs', tostring(now), 'message', message,
    'ms', tostring(now))
  return {'LATE', now, state}
end

local result = {}
local i = 4
for k = 1, #KEYS, 2 do
  local events, open = KEYS[k], KEYS[k + 1]
  local prefix, endedPrefix, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  i = i + 3
  for _ = 1, n do
    result[#result + 1] = complete(events, open, prefix, endedPrefix, ARGV[i], ARGV[i + 1],
      ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5])
    i = i + 6
  end
end
return result
