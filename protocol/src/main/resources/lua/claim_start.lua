-- claim_start: the once-only start claims of a group of triggers, run by an executor as their
-- handlers start (the claims that queued behind a call in flight go together: one script carries
-- many starts under load). On one Redis server a group may span shards; on Redis Cluster it is
-- one shard's (ShardedCall lays it out).
--
-- Per shard s of the group, in order, two KEYS:
--   the shard's STREAM kairos:{s}:events                 (read by persistence-sync)
--   the shard's open-trigger ZSET kairos:{s}:open         (the lost-trigger monitor's index)
-- ARGV[1]  dedup window D in ms
-- ARGV[2]  approximate MAXLEN of the events stream
-- then per shard, in the order of KEYS:
--   trigger key prefix   kairos:{s}:trigger:   (the record HASH, fields: TriggerFields)
--   n, the number of its triggers, then n groups of 7:
--     trigger id, job id, scheduled fire time (epoch ms, from the message; used when the record
--     has none), executor instance id, executor slot, attempt, handler timeout in ms (0 for none)
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
-- Returns, per trigger in the order of ARGV, {outcome, nowMs, state found ('' when missing), executor found
-- ('' when none)}.
redis.replicate_commands()

local window = tonumber(ARGV[1])
local maxlen = ARGV[2]

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local function claim(events, open, prefix, id, job, fireArg, executor, slot, attempt, timeout)
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
local i = 3
for k = 1, #KEYS, 2 do
  local events, open, prefix, n = KEYS[k], KEYS[k + 1], ARGV[i], tonumber(ARGV[i + 1])
  i = i + 2
  for _ = 1, n do
    result[#result + 1] = claim(events, open, prefix, ARGV[i], ARGV[i + 1], ARGV[i + 2],
      ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], tonumber(ARGV[i + 6]))
    i = i + 7
  end
end
return result
