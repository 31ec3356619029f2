-- take_due.lua: node N takes its due entries of ONE shard off its persisted wheel to dispatch
-- them. Only N's own keys are written (wheel:N, inflight:N) plus the records of its triggers.
--
-- KEYS[1]  kairos:{s}:wheel:<N>     ZSET  trigger id -> fire ms
-- KEYS[2]  kairos:{s}:inflight:<N>  ZSET  trigger id -> ms it was taken off the wheel
-- KEYS[3]  kairos:{s}:events        STREAM
-- KEYS[4]  kairos:{s}:open          ZSET  open triggers: a dropped (final) trigger leaves it
--
-- ARGV[1]  upTo: entries with fire ms <= upTo are taken (the node's pre-dispatch lead ahead of
--          cluster time: the executor holds a trigger until its fire time)
-- ARGV[2]  limit: at most this many entries per call
-- ARGV[3]  now, epoch ms (cluster time)
-- ARGV[4]  job key prefix        kairos:{s}:job:
-- ARGV[5]  trigger key prefix    kairos:{s}:trigger:
-- ARGV[6]  approximate MAXLEN of the events stream
-- ARGV[7]  tombstone key prefix  kairos:{s}:ended:
-- ARGV[8]  tombstone bucket width in ms
--
-- Each entry leaves the wheel. It is dropped as stale (trigger -> DROPPED_STALE, its
-- TRIGGER_ENDED event) when its job hash is gone, the job is disabled, or the job's
-- scheduleVersion differs from the one the fire was claimed under (scheduled fires only: an
-- ad-hoc trigger, whose record has a 'kind', was asked for explicitly and survives a schedule
-- change). An entry whose trigger already started or ended (its record says so, or only its
-- tombstone is left) is dropped quietly (a re-send of it would only be reported DUPLICATE). Every
-- other entry moves to inflight:N and is returned with the job's CURRENT dispatch fields, so a
-- params-only update made before the take is honoured; an ad-hoc trigger's params override
-- (record field 'params') replaces the job's params, and the slot it asked for (record field
-- 'targetSlot') comes along.
--
-- Returns {staleDropped, alreadyStarted, e_1, ..., e_n} where each e_i is
--         {triggerId, jobId, fireMs, app, handler, params, routing, block, timeoutMs, attempt,
--          targetSlot}
--         (a missing field is returned as "")

local wheel, inflight, events, open = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now = ARGV[3]
local jobPrefix, triggerPrefix, maxlen = ARGV[4], ARGV[5], ARGV[6]
local endedPrefix, bucketMs = ARGV[7], tonumber(ARGV[8])

local ids = redis.call('ZRANGEBYSCORE', wheel, '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]),
  'WITHSCORES')
local result = {0, 0}
local stale, started = 0, 0

-- The trigger's one TRIGGER_ENDED event: every field its record holds (none when it is gone).
local function ended(triggerKey, triggerId, jobId)
  local fields = redis.call('HGETALL', triggerKey)
  local event = {'type', 'TRIGGER_ENDED', 'triggerId', triggerId, 'jobId', jobId}
  for k = 1, #fields, 2 do
    local name = fields[k]
    if name ~= 'id' and name ~= 'jobId' and name ~= 'quietSuccess' and name ~= 'targetSlot' then
      event[#event + 1] = name
      event[#event + 1] = fields[k + 1]
    end
  end
  event[#event + 1] = 'ms'
  event[#event + 1] = now
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', unpack(event))
end

local function dropStale(triggerId, triggerKey, jobId, fireMs, reason)
  redis.call('ZREM', open, triggerId)
  if redis.call('EXISTS', triggerKey) == 1 then
    redis.call('HSET', triggerKey, 'state', 'DROPPED_STALE', 'endedMs', now, 'message', reason)
    ended(triggerKey, triggerId, jobId)
  else
    -- No record to carry them: the event alone says what happened.
    redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
      'type', 'TRIGGER_ENDED', 'triggerId', triggerId, 'jobId', jobId,
      'fireMs', fireMs, 'state', 'DROPPED_STALE', 'endedMs', now, 'message', reason, 'ms', now)
  end
  stale = stale + 1
end

for k = 1, #ids, 2 do
  local triggerId, fireMs = ids[k], ids[k + 1]
  redis.call('ZREM', wheel, triggerId)
  local triggerKey = triggerPrefix .. triggerId
  local t = redis.call('HMGET', triggerKey, 'jobId', 'scheduleVersion', 'state', 'attempt', 'fireMs',
    'kind', 'params', 'targetSlot')
  local adhoc = t[6] and t[6] ~= 'SCHEDULED'
  local jobId = t[1] or string.match(triggerId, '^([^:]+):')
  local state = t[3]
  if state and state ~= 'CLAIMED' and state ~= 'DISPATCHED' then
    -- RUNNING or final: the executor has it, or it is over; never regress it.
    started = started + 1
  elseif not state and redis.call('HEXISTS',
      endedPrefix .. math.floor(tonumber(fireMs) / bucketMs), triggerId) == 1 then
    -- Ended, synced and compacted: only its tombstone is left.
    started = started + 1
  else
    local j = redis.call('HMGET', jobPrefix .. jobId,
      'scheduleVersion', 'enabled', 'app', 'handler', 'params', 'routing', 'block', 'timeoutMs')
    if not state then
      dropStale(triggerId, triggerKey, jobId, fireMs, 'trigger record missing')
    elseif not j[1] then
      dropStale(triggerId, triggerKey, jobId, fireMs, 'job deleted')
    elseif j[2] == 'false' or j[2] == '0' then
      dropStale(triggerId, triggerKey, jobId, fireMs, 'job disabled')
    elseif j[1] ~= t[2] and not adhoc then
      dropStale(triggerId, triggerKey, jobId, fireMs,
        'schedule version ' .. tostring(t[2]) .. ' is now ' .. j[1])
    else
      redis.call('ZADD', inflight, now, triggerId)
      local params = j[5] or ''
      if t[7] then
        params = t[7]
      end
      result[#result + 1] = {triggerId, jobId, t[5] or '', j[3] or '', j[4] or '', params,
        j[6] or '', j[7] or '', j[8] or '', t[4] or '1', t[8] or ''}
    end
  end
end
result[1] = stale
result[2] = started
return result
