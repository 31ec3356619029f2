-- claim_start: the once-only start claims of groups of triggers of one or more shards, run by an
-- executor as their handlers start (the claims that queued behind a call in flight go together:
-- one script carries many starts under load; every shard's on a single Redis server, one shard's
-- in Redis Cluster).
--
-- KEYS, 2 per shard g = 1..G, in the order of the shard sections in ARGV:
--   the shard's STREAM kairos:{s}:events                 (read by persistence-sync)
--   the shard's open-trigger ZSET kairos:{s}:open         (the lost-trigger monitor's index)
-- ARGV[1]  dedup window D in ms
-- ARGV[2]  approximate MAXLEN of the events stream
-- ARGV[3..] per shard g, a section: trigger key prefix kairos:{s}:trigger: (the record HASH,
--   fields: TriggerFields), count n, then n groups of 7 per trigger:
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
-- Returns, per trigger in ARGV order, {outcome, nowMs, state found ('' when missing), executor found
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
local a = 3
for g = 1, #KEYS / 2 do
  local events, open = KEYS[2 * g - 1], KEYS[2 * g]
  local prefix, n = ARGV[a], tonumber(ARGV[a + 1])
  a = a + 2
  for _ = 1, n do
    result[#result + 1] = claim(events, open, prefix, ARGV[a], ARGV[a + 1], ARGV[a + 2],
      ARGV[a + 3], ARGV[a + 4], ARGV[a + 5], tonumber(ARGV[a + 6]))
    a = a + 7
  end
end
return result
