-- take_due.lua: node N takes its due entries of one or more shards off its persisted wheel to
-- dispatch them. Only N's own keys are written (wheel:N, inflight:N) plus the records of its
-- triggers. On a single Redis server one call carries every shard of a wheel tick; in Redis
-- Cluster a call carries one shard (its keys share one hash slot).
--
-- KEYS, 4 per shard g = 1..G, in the order of the shard sections in ARGV:
--   kairos:{s}:wheel:<N>     ZSET  trigger id -> fire ms
--   kairos:{s}:inflight:<N>  ZSET  trigger id -> ms it was taken off the wheel
--   kairos:{s}:events        STREAM
--   kairos:{s}:open          ZSET  open triggers: a dropped (final) trigger leaves it
--
-- ARGV[1]  limit: at most this many entries per shard
-- ARGV[2]  now, epoch ms (cluster time)
-- ARGV[3]  approximate MAXLEN of the events stream
-- ARGV[4..] 3 per shard g: upTo (entries with fire ms <= upTo are taken), job key prefix
--          kairos:{s}:job:, trigger key prefix kairos:{s}:trigger:
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
-- replaces the job's params.
--
-- Returns {staleDropped, alreadyStarted, e_1, ..., e_n} where each e_i is
--         {triggerId, jobId, fireMs, app, handler, params, routing, block, timeoutMs, attempt, g}
--         (a missing field is returned as ""; g is the entry's shard section, 1-based)

local limit = tonumber(ARGV[1])
local now = ARGV[2]
local maxlen = ARGV[3]

local result = {0, 0}
local stale, started = 0, 0

local function dropStale(events, open, triggerId, triggerKey, jobId, reason)
  if redis.call('EXISTS', triggerKey) == 1 then
    redis.call('HSET', triggerKey, 'state', 'DROPPED_STALE', 'endedMs', now, 'message', reason)
  end
  redis.call('ZREM', open, triggerId)
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
    'type', 'TRIGGER_UPDATED', 'triggerId', triggerId, 'jobId', jobId,
    'state', 'DROPPED_STALE', 'message', reason, 'ms', now)
  stale = stale + 1
end

local function take(g, wheel, inflight, events, open, upTo, jobPrefix, triggerPrefix)
  local ids = redis.call('ZRANGEBYSCORE', wheel, '-inf', upTo, 'LIMIT', 0, limit)
  for _, triggerId in ipairs(ids) do
    redis.call('ZREM', wheel, triggerId)
    local triggerKey = triggerPrefix .. triggerId
    local t = redis.call('HMGET', triggerKey, 'jobId', 'scheduleVersion', 'state', 'attempt',
      'fireMs', 'kind', 'params')
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
        dropStale(events, open, triggerId, triggerKey, jobId, 'trigger record missing')
      elseif not j[1] then
        dropStale(events, open, triggerId, triggerKey, jobId, 'job deleted')
      elseif j[2] == 'false' or j[2] == '0' then
        dropStale(events, open, triggerId, triggerKey, jobId, 'job disabled')
      elseif j[1] ~= t[2] and not adhoc then
        dropStale(events, open, triggerId, triggerKey, jobId,
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
          j[6] or '', j[7] or '', j[8] or '', t[4] or '1', g}
      end
    end
  end
end

for g = 1, #KEYS / 4 do
  local k, a = 4 * (g - 1), 3 + 3 * (g - 1)
  take(g, KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], ARGV[a + 1], ARGV[a + 2],
    ARGV[a + 3])
end
result[1] = stale
result[2] = started
return result
