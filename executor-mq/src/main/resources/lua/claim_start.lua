-- claim_start: the once-only start claims of a group of triggers of ONE shard, run by an
-- executor as their handlers start (the claims that queued behind a call in flight go together:
-- one script carries many starts under load).
--
-- KEYS[1]  the shard's STREAM kairos:{s}:events                 (read by persistence-sync)
-- KEYS[2]  the shard's open-trigger ZSET kairos:{s}:open         (the lost-trigger monitor's index)
-- ARGV[1]  dedup window D in ms
-- ARGV[2]  approximate MAXLEN of the events stream
-- ARGV[3]  trigger key prefix   kairos:{s}:trigger:   (the record HASH, fields: TriggerFields)
-- ARGV[4..] groups of 7 per trigger:
--   trigger id, job id, scheduled fire time (epoch ms, from the message; used when the record
--   has none), executor instance id, executor slot, attempt, handler timeout in ms (0 for none)
--
-- Transitions per trigger (time = this server's TIME, one clock for every executor):
--   CLAIMED | DISPATCHED, fire time within D  -> RUNNING (executor, slot, startedMs)  => STARTED
--     (DISPATCHED is recorded by the node after the broker ack, so the executor may see CLAIMED)
--   CLAIMED | DISPATCHED, fire time older than D -> EXPIRED                          => EXPIRED
--   EXPIRED                                     -> unchanged                         => EXPIRED
--   RUNNING or any other final state            -> unchanged                         => DUPLICATE
--     (CANCELLED included: a trigger cancelled before it started never starts)
--   record missing, fire time within D          -> created RUNNING (recreated = 1)   => STARTED
--     (the node writes the record before it publishes, so a missing record was lost in a Redis
--      failover or crash: refusing to start would turn that into a missed fire, and creating it
--      RUNNING keeps every later copy a DUPLICATE)
--   record missing, fire time older than D      -> nothing written                   => EXPIRED
-- Every write appends a TRIGGER_UPDATED event and sets the record to expire D after the change
-- (plus the timeout while RUNNING), and never before fire time + D, so memory stays bounded.
-- A start re-scores the trigger in the open-trigger index (score = start time); EXPIRED is final
-- and removes it.
--
-- Returns, per trigger in order, {outcome, nowMs, state found ('' when missing), executor found
-- ('' when none)}.
redis.replicate_commands()

local events, open = KEYS[1], KEYS[2]
local window = tonumber(ARGV[1])
local maxlen = ARGV[2]
local prefix = ARGV[3]

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local function claim(id, job, fireArg, executor, slot, attempt, timeout)
  local key = prefix .. id
  local found = redis.call('HMGET', key, 'state', 'fireMs', 'executor')
  local state, executorFound = found[1], found[3]
  local fire = tonumber(found[2]) or tonumber(fireArg)

  local function expireAt(extra)
    return math.max(fire + window, now + window + extra)
  end

  local function event(newState)
    redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
      'type', 'TRIGGER_UPDATED', 'triggerId', id, 'jobId', job, 'state', newState,
      'fireMs', tostring(fire), 'executor', executor, 'slot', slot,
      'attempt', attempt, 'ts', tostring(now))
  end

  if not state then
    if now - fire > window then
      return {'EXPIRED', now, '', ''}
    end
    redis.call('HSET', key, 'id', id, 'jobId', job, 'fireMs', tostring(fire), 'state', 'RUNNING',
      'executor', executor, 'slot', slot, 'startedMs', tostring(now), 'attempt', attempt,
      'recreated', '1')
    redis.call('PEXPIREAT', key, expireAt(timeout))
    redis.call('ZADD', open, now, id)
    event('RUNNING')
    return {'STARTED', now, '', ''}
  end

  if state == 'CLAIMED' or state == 'DISPATCHED' then
    if now - fire > window then
      redis.call('HSET', key, 'state', 'EXPIRED', 'endedMs', tostring(now))
      redis.call('PEXPIREAT', key, expireAt(0))
      redis.call('ZREM', open, id)
      event('EXPIRED')
      return {'EXPIRED', now, state, ''}
    end
    redis.call('HSET', key, 'state', 'RUNNING', 'executor', executor, 'slot', slot,
      'startedMs', tostring(now), 'attempt', attempt)
    redis.call('PEXPIREAT', key, expireAt(timeout))
    redis.call('ZADD', open, now, id)
    event('RUNNING')
    return {'STARTED', now, state, ''}
  end

  if state == 'EXPIRED' then
    return {'EXPIRED', now, state, executorFound or ''}
  end
  return {'DUPLICATE', now, state, executorFound or ''}
end

local result = {}
for i = 4, #ARGV, 7 do
  result[#result + 1] = claim(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4],
    ARGV[i + 5], tonumber(ARGV[i + 6]))
end
return result
