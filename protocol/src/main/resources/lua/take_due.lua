-- take_due.lua: node N takes its due entries of ONE shard off its persisted wheel to dispatch
-- them. Only N's own keys are written (wheel:N, inflight:N) plus the records of its triggers.
--
-- KEYS[1]  kairos:{s}:wheel:<N>     ZSET  trigger id -> fire ms
-- KEYS[2]  kairos:{s}:inflight:<N>  ZSET  trigger id -> ms it was taken off the wheel
-- KEYS[3]  kairos:{s}:events        STREAM
-- KEYS[4]  kairos:{s}:open          ZSET  open triggers: a dropped (final) trigger leaves it
--
-- ARGV[1]  upTo: entries with fire ms <= upTo are taken
-- ARGV[2]  limit: at most this many entries per call
-- ARGV[3]  now, epoch ms (cluster time)
-- ARGV[4]  job key prefix      kairos:{s}:job:
-- ARGV[5]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[6]  approximate MAXLEN of the events stream
--
-- Each entry leaves the wheel. It is dropped as stale (trigger -> DROPPED_STALE + event) when its
-- job hash is gone, the job is disabled, or the job's scheduleVersion differs from the one the
-- fire was claimed under (scheduled fires only: an ad-hoc trigger, whose record has a 'kind',
-- was asked for explicitly and survives a schedule change). An entry whose trigger already
-- started or ended is dropped quietly (a re-send of it would only be reported DUPLICATE). Every
-- other entry moves to inflight:N, its record gets 'quietSuccess' ('1' when a SUCCESS of it needs
-- no lifecycle reaction: the job has no child jobs and is not FIXED_DELAY), and it is returned
-- with the job's CURRENT dispatch fields, so a
-- params-only update is honoured; an ad-hoc trigger's params override (record field 'params')
-- replaces the job's params, and the slot it asked for (record field 'targetSlot') comes along.
--
-- Returns {staleDropped, alreadyStarted, e_1, ..., e_n} where each e_i is
--         {triggerId, jobId, fireMs, app, handler, params, routing, block, timeoutMs, attempt,
--          targetSlot}
--         (a missing field is returned as "")

local wheel, inflight, events, open = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now = ARGV[3]
local jobPrefix, triggerPrefix, maxlen = ARGV[4], ARGV[5], ARGV[6]

local ids = redis.call('ZRANGEBYSCORE', wheel, '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local result = {0, 0}
local stale, started = 0, 0

local function dropStale(triggerId, triggerKey, jobId, reason)
  if redis.call('EXISTS', triggerKey) == 1 then
    redis.call('HSET', triggerKey, 'state', 'DROPPED_STALE', 'endedMs', now, 'message', reason)
  end
  redis.call('ZREM', open, triggerId)
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
    'type', 'TRIGGER_UPDATED', 'triggerId', triggerId, 'jobId', jobId,
    'state', 'DROPPED_STALE', 'message', reason, 'ms', now)
  stale = stale + 1
end

for _, triggerId in ipairs(ids) do
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
  else
    local j = redis.call('HMGET', jobPrefix .. jobId,
      'scheduleVersion', 'enabled', 'app', 'handler', 'params', 'routing', 'block', 'timeoutMs',
      'childJobIds', 'scheduleType')
    if not state then
      dropStale(triggerId, triggerKey, jobId, 'trigger record missing')
    elseif not j[1] then
      dropStale(triggerId, triggerKey, jobId, 'job deleted')
    elseif j[2] == 'false' or j[2] == '0' then
      dropStale(triggerId, triggerKey, jobId, 'job disabled')
    elseif j[1] ~= t[2] and not adhoc then
      dropStale(triggerId, triggerKey, jobId,
        'schedule version ' .. tostring(t[2]) .. ' is now ' .. j[1])
    else
      redis.call('ZADD', inflight, now, triggerId)
      -- A success of a job with no child jobs that is not FIXED_DELAY needs no lifecycle
      -- reaction: complete_trigger says so in its event, and the lifecycle skips reading the
      -- record and the job for it.
      local quiet = '0'
      if (j[9] == nil or j[9] == false or j[9] == '') and j[10] ~= 'FIXED_DELAY' then
        quiet = '1'
      end
      redis.call('HSET', triggerKey, 'quietSuccess', quiet)
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
