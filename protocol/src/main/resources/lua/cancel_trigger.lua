-- cancel_trigger.lua: an operator cancels one trigger.
--
-- KEYS[1]  kairos:{s}:trigger:<id>   HASH    the trigger record
-- KEYS[2]  kairos:{s}:open           ZSET    open triggers
-- KEYS[3]  kairos:{s}:events         STREAM
-- KEYS[4]  kairos:{s}:job:<jobId>    HASH    the job (for its executor app)
--
-- ARGV[1]  trigger id
-- ARGV[2]  job id
-- ARGV[3]  now, epoch ms (cluster time)
-- ARGV[4]  who asks (shown in the record and the event)
-- ARGV[5]  dedup window D in ms (a final record is kept D past the change)
-- ARGV[6]  approximate MAXLEN of the events stream
--
-- CLAIMED | DISPATCHED -> CANCELLED at once (endedMs, message), leaves the open index, event:
--     it never starts (claim_start refuses a final trigger; take_due drops it from the wheel)
-- RUNNING              -> unchanged state; cancelRequested = now, cancelledBy = who, event:
--     the caller notifies the app's executors, and the one running it interrupts the handler
--     and records CANCELLED (complete_trigger); if that executor is dead, the lost-trigger
--     monitor ends it CANCELLED instead of LOST
-- final                -> unchanged
-- missing              -> unchanged
--
-- Returns {outcome, state found, executor, app}
--   outcome = CANCELLED | CANCEL_REQUESTED | ALREADY_FINAL | NOT_FOUND

local key, open, events, job = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, jobId, now, by = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local window, maxlen = tonumber(ARGV[5]), ARGV[6]

local t = redis.call('HMGET', key, 'state', 'executor', 'fireMs')
local state = t[1]
local app = redis.call('HGET', job, 'app') or ''
if not state then
  return {'NOT_FOUND', '', '', app}
end
if state == 'CLAIMED' or state == 'DISPATCHED' then
  local message = 'cancelled by ' .. by .. ' before it started'
  redis.call('HSET', key, 'state', 'CANCELLED', 'endedMs', now, 'message', message,
    'cancelledBy', by)
  redis.call('PEXPIREAT', key, math.max((tonumber(t[3]) or now) + window, now + window))
  redis.call('ZREM', open, id)
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
    'type', 'TRIGGER_UPDATED', 'triggerId', id, 'jobId', jobId, 'state', 'CANCELLED',
    'message', message, 'ms', now)
  return {'CANCELLED', state, '', app}
end
if state == 'RUNNING' then
  if not redis.call('HGET', key, 'cancelRequested') then
    redis.call('HSET', key, 'cancelRequested', now, 'cancelledBy', by)
    -- The event's time is the start time, so persistence-sync (which reads a RUNNING event's
    -- time as the start) keeps the real start; the request time travels in cancelRequested.
    local started = redis.call('HGET', key, 'startedMs') or tostring(now)
    redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
      'type', 'TRIGGER_UPDATED', 'triggerId', id, 'jobId', jobId, 'state', 'RUNNING',
      'cancelRequested', tostring(now), 'message', 'cancel requested by ' .. by, 'ms', started)
  end
  return {'CANCEL_REQUESTED', state, t[2] or '', app}
end
return {'ALREADY_FINAL', state, t[2] or '', app}
