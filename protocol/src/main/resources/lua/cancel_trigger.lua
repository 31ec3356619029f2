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
-- ARGV[7]  tombstone key prefix  kairos:{s}:ended:
-- ARGV[8]  tombstone bucket width in ms
--
-- CLAIMED | DISPATCHED -> CANCELLED at once (endedMs, message), leaves the open index, its
--     TRIGGER_ENDED event: it never starts (claim_start refuses a final trigger; take_due drops
--     it from the wheel)
-- RUNNING              -> unchanged state; cancelRequested = now, cancelledBy = who (no event:
--     its end carries them): the caller notifies the app's executors, and the one running it
--     interrupts the handler and records CANCELLED (complete_trigger); if that executor is dead,
--     the lost-trigger monitor ends it CANCELLED instead of LOST
-- final                -> unchanged
-- only a tombstone     -> unchanged (ended in SUCCESS, synced and compacted): ALREADY_FINAL
-- missing              -> unchanged
--
-- Returns {outcome, state found, executor, app}
--   outcome = CANCELLED | CANCEL_REQUESTED | ALREADY_FINAL | NOT_FOUND

local key, open, events, job = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, jobId, now, by = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local window, maxlen = tonumber(ARGV[5]), ARGV[6]
local endedPrefix, bucketMs = ARGV[7], tonumber(ARGV[8])

local t = redis.call('HMGET', key, 'state', 'executor', 'fireMs')
local state = t[1]
local app = redis.call('HGET', job, 'app') or ''
if not state then
  local idFire = string.match(id, '^[^:]+:(%d+)')
  if idFire then
    local tomb = redis.call('HGET', endedPrefix .. math.floor(tonumber(idFire) / bucketMs), id)
    if tomb then
      return {'ALREADY_FINAL', tomb, '', app}
    end
  end
  return {'NOT_FOUND', '', '', app}
end
if state == 'CLAIMED' or state == 'DISPATCHED' then
  local message = 'cancelled by ' .. by .. ' before it started'
  redis.call('HSET', key, 'state', 'CANCELLED', 'endedMs', now, 'message', message,
    'cancelledBy', by)
  redis.call('PEXPIREAT', key, math.max((tonumber(t[3]) or now) + window, now + window))
  redis.call('ZREM', open, id)
  local fields = redis.call('HGETALL', key)
  local event = {'type', 'TRIGGER_ENDED', 'triggerId', id, 'jobId', jobId}
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
  return {'CANCELLED', state, '', app}
end
if state == 'RUNNING' then
  if not redis.call('HGET', key, 'cancelRequested') then
    redis.call('HSET', key, 'cancelRequested', now, 'cancelledBy', by)
  end
  return {'CANCEL_REQUESTED', state, t[2] or '', app}
end
return {'ALREADY_FINAL', state, t[2] or '', app}
