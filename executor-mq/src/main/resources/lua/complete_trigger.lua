-- complete_trigger: record how a started trigger ended, without ever regressing a final state.
--
-- KEYS[1]  the trigger HASH   kairos:{s}:trigger:<triggerId>   (fields: TriggerFields)
-- KEYS[2]  the shard's STREAM kairos:{s}:events
-- KEYS[3]  the shard's open-trigger ZSET kairos:{s}:open (a final trigger leaves it)
-- ARGV[1]  trigger id
-- ARGV[2]  job id
-- ARGV[3]  scheduled fire time, epoch ms (used when the record has none)
-- ARGV[4]  executor instance id (must be the one that started it)
-- ARGV[5]  final state: SUCCESS | FAIL | TIMEOUT | DISCARDED | CANCELLED
--          (CANCELLED: the executor interrupted the run because an operator cancelled it)
-- ARGV[6]  message (already bounded by the caller)
-- ARGV[7]  dedup window D in ms
-- ARGV[8]  approximate MAXLEN of the events stream
--
-- Outcomes:
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
--   record missing (expired after D, or lost in a failover) -> recreated final      => RECREATED
-- Every write appends a TRIGGER_UPDATED event and keeps the record D past the change.
--
-- Returns {outcome, nowMs, state found ('' when missing)}.
redis.replicate_commands()

local key, events, open = KEYS[1], KEYS[2], KEYS[3]
local id, job = ARGV[1], ARGV[2]
local executor, final, message = ARGV[4], ARGV[5], ARGV[6]
local window = tonumber(ARGV[7])
local maxlen = ARGV[8]

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local found = redis.call('HMGET', key, 'state', 'fireMs', 'executor')
local state, executorFound = found[1], found[3]
local fire = tonumber(found[2]) or tonumber(ARGV[3])

local function event(newState, late)
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
    'type', 'TRIGGER_UPDATED', 'triggerId', id, 'jobId', job, 'state', newState,
    'fireMs', tostring(fire), 'executor', executor, 'endedMs', tostring(now),
    'message', message, 'late', late, 'ts', tostring(now))
end

local function finish(outcome)
  redis.call('HSET', key, 'state', final, 'executor', executor, 'endedMs', tostring(now),
    'message', message)
  redis.call('PEXPIREAT', key, math.max(fire + window, now + window))
  redis.call('ZREM', open, id)
  event(final, '0')
  return {outcome, now, state or ''}
end

if not state then
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
event(state, '1')
return {'LATE', now, state}
