-- claim_start: the once-only start claims of a group of triggers, run by an executor as their
-- handlers start, at their fire time (the claims that queued behind a call in flight go together:
-- one script carries many starts under load). On one Redis server a group may span shards; on
-- Redis Cluster it is one shard's (ShardedCall lays it out).
--
-- Per shard s of the group, in order, two KEYS:
--   the shard's STREAM kairos:{s}:events                 (read by persistence-sync)
--   the shard's open-trigger ZSET kairos:{s}:open         (the lost-trigger monitor's index)
-- ARGV[1]  dedup window D in ms
-- ARGV[2]  approximate MAXLEN of the events stream
-- ARGV[3]  tombstone bucket width in ms (RedisKeys.ENDED_BUCKET_MS)
-- then per shard, in the order of KEYS:
--   trigger key prefix   kairos:{s}:trigger:   (the record HASH, fields: TriggerFields)
--   job key prefix       kairos:{s}:job:
--   tombstone prefix     kairos:{s}:ended:
--   n, the number of its triggers, then n groups of 8:
--     trigger id, job id, scheduled fire time (epoch ms, from the message; used when the record
--     has none), executor instance id, executor slot, attempt, handler timeout in ms (0 for none),
--     when the node sent the message (epoch ms; the record's dispatchedMs when the node's ack has
--     not been recorded yet: acks are grouped and may land after the start)
--
-- Transitions per trigger (time = this server's TIME, one clock for every executor):
--   CLAIMED | DISPATCHED, fire time older than D -> EXPIRED                           => EXPIRED
--   CLAIMED | DISPATCHED, job deleted or disabled since the dispatch, or (a scheduled fire) its
--     schedule version changed                  -> DROPPED_STALE                     => DROPPED
--     (the node took and sent the trigger a pre-dispatch lead before its fire time; the stale
--      check take_due makes at take time is made again here, at the start)
--   CLAIMED | DISPATCHED otherwise              -> RUNNING (executor, slot, startedMs, and
--     dispatchedMs from the message if the node's ack has not landed yet)       => STARTED
--     (DISPATCHED is recorded by the node after the broker ack, so the executor may see CLAIMED)
--   EXPIRED                                     -> unchanged                         => EXPIRED
--   RUNNING or any other final state            -> unchanged                         => DUPLICATE
--     (CANCELLED included: a trigger cancelled before it started never starts)
--   record gone, its tombstone there            -> unchanged                         => DUPLICATE
--     (ended in SUCCESS, synced to the history and compacted)
--   record missing, fire time within D          -> created RUNNING (recreated = 1)   => STARTED
--     (the leader writes the record before the node publishes, so a missing record was lost in a
--      Redis failover or crash: refusing to start would turn that into a missed fire, and creating
--      it RUNNING keeps every later copy a DUPLICATE)
--   record missing, fire time older than D      -> nothing written                   => EXPIRED
-- A start writes no stream event (the trigger's TRIGGER_ENDED carries executor, slot and
-- startedMs); EXPIRED and DROPPED_STALE are final and append their TRIGGER_ENDED. Every write sets
-- the record to expire D after the change (plus the timeout while RUNNING), and never before fire
-- time + D, so memory stays bounded. A start re-scores the trigger in the open-trigger index
-- (score = start time); a final state removes it.
--
-- Returns, per trigger in the order of ARGV, {outcome, nowMs, state found ('' when missing),
-- executor found ('' when none)}.
redis.replicate_commands()

local window = tonumber(ARGV[1])
local maxlen = ARGV[2]
local bucketMs = tonumber(ARGV[3])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

-- The trigger's one TRIGGER_ENDED event: every field its record holds.
local function ended(events, key, id, job)
  local fields = redis.call('HGETALL', key)
  local event = {'type', 'TRIGGER_ENDED', 'triggerId', id, 'jobId', job}
  for k = 1, #fields, 2 do
    local name = fields[k]
    if name ~= 'id' and name ~= 'jobId' and name ~= 'quietSuccess' and name ~= 'targetSlot' then
      event[#event + 1] = name
      event[#event + 1] = fields[k + 1]
    end
  end
  event[#event + 1] = 'ms'
  event[#event + 1] = tostring(now)
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', unpack(event))
end

-- Why a claimed trigger must not start any more, or nil.
local function staleness(jobPrefix, job, version, kind)
  local j = redis.call('HMGET', jobPrefix .. job, 'scheduleVersion', 'enabled')
  if not j[1] then
    return 'job deleted'
  end
  if j[2] == 'false' or j[2] == '0' then
    return 'job disabled'
  end
  if (not kind or kind == 'SCHEDULED') and j[1] ~= version then
    return 'schedule version ' .. tostring(version) .. ' is now ' .. j[1]
  end
  return nil
end

local function claim(events, open, prefix, jobPrefix, endedPrefix, id, job, fireArg, executor,
    slot, attempt, timeout, sentMs)
  local key = prefix .. id
  local found = redis.call('HMGET', key, 'state', 'fireMs', 'executor', 'scheduleVersion', 'kind',
    'dispatchedMs')
  local state, executorFound = found[1], found[3]
  local fire = tonumber(found[2]) or tonumber(fireArg)

  local function expireAt(extra)
    return math.max(fire + window, now + window + extra)
  end

  if not state then
    local tomb = redis.call('HGET', endedPrefix .. math.floor(fire / bucketMs), id)
    if tomb then
      return {'DUPLICATE', now, tomb, ''}
    end
    if now - fire > window then
      return {'EXPIRED', now, '', ''}
    end
    redis.call('HSET', key, 'id', id, 'jobId', job, 'fireMs', tostring(fire), 'state', 'RUNNING',
      'executor', executor, 'slot', slot, 'startedMs', tostring(now), 'attempt', attempt,
      'dispatchedMs', sentMs, 'recreated', '1')
    redis.call('PEXPIREAT', key, expireAt(timeout))
    redis.call('ZADD', open, now, id)
    return {'STARTED', now, '', ''}
  end

  if state == 'CLAIMED' or state == 'DISPATCHED' then
    if now - fire > window then
      redis.call('HSET', key, 'state', 'EXPIRED', 'endedMs', tostring(now),
        'message', 'never started within the dedup window')
      redis.call('PEXPIREAT', key, expireAt(0))
      redis.call('ZREM', open, id)
      ended(events, key, id, job)
      return {'EXPIRED', now, state, ''}
    end
    local stale = staleness(jobPrefix, job, found[4], found[5])
    if stale then
      redis.call('HSET', key, 'state', 'DROPPED_STALE', 'endedMs', tostring(now),
        'message', stale, 'executor', executor, 'slot', slot)
      redis.call('PEXPIREAT', key, expireAt(0))
      redis.call('ZREM', open, id)
      ended(events, key, id, job)
      return {'DROPPED', now, state, ''}
    end
    redis.call('HSET', key, 'state', 'RUNNING', 'executor', executor, 'slot', slot,
      'startedMs', tostring(now), 'attempt', attempt)
    if not found[6] then
      redis.call('HSET', key, 'dispatchedMs', sentMs)
    end
    redis.call('PEXPIREAT', key, expireAt(timeout))
    redis.call('ZADD', open, now, id)
    return {'STARTED', now, state, ''}
  end

  if state == 'EXPIRED' then
    return {'EXPIRED', now, state, executorFound or ''}
  end
  return {'DUPLICATE', now, state, executorFound or ''}
end

local result = {}
local i = 4
for k = 1, #KEYS, 2 do
  local events, open = KEYS[k], KEYS[k + 1]
  local prefix, jobPrefix, endedPrefix, n = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  i = i + 4
  for _ = 1, n do
    result[#result + 1] = claim(events, open, prefix, jobPrefix, endedPrefix, ARGV[i],
      ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], tonumber(ARGV[i + 6]),
      ARGV[i + 7])
    i = i + 8
  end
end
return result
