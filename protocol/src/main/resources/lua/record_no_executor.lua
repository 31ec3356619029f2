-- record_no_executor.lua: node N found no live executor for a trigger; the trigger ends as
-- NO_EXECUTOR (a job may name an app that has not registered yet; it is not an error).
--
-- KEYS[1]  kairos:{s}:inflight:<N>   ZSET  (N's own key)
-- KEYS[2]  kairos:{s}:trigger:<id>   HASH  the trigger record
-- KEYS[3]  kairos:{s}:events         STREAM
-- KEYS[4]  kairos:{s}:due            ZSET
-- KEYS[5]  kairos:{s}:job:<jobId>    HASH
-- KEYS[6]  kairos:{s}:open           ZSET  open triggers: a final trigger leaves it
--
-- ARGV[1]  trigger id
-- ARGV[2]  job id
-- ARGV[3]  now, epoch ms
-- ARGV[4]  message
-- ARGV[5]  approximate MAXLEN of the events stream
--
-- The entry leaves inflight:N; a trigger not yet RUNNING or final becomes NO_EXECUTOR
-- (endedMs, message) with its TRIGGER_ENDED event (every field of its record). A FIXED_DELAY job parked for this trigger (due score +inf,
-- same scheduleVersion) is re-armed at now + its delay, since the trigger ended without running,
-- unless a retry follows (attempt <= the job's retryCount): then the lifecycle worker re-arms it
-- when the retry chain ends, so a retry never overlaps the next scheduled fire.
--
-- Returns 1  recorded
--         0  the entry was not in inflight:N (the leader moved it away): nothing written

if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then
  return 0
end
local now = tonumber(ARGV[3])
local t = redis.call('HMGET', KEYS[2], 'state', 'scheduleVersion', 'attempt')
if t[1] == 'CLAIMED' or t[1] == 'DISPATCHED' then
  redis.call('HSET', KEYS[2], 'state', 'NO_EXECUTOR', 'endedMs', ARGV[3], 'message', ARGV[4])
  redis.call('ZREM', KEYS[6], ARGV[1])
  local fields = redis.call('HGETALL', KEYS[2])
  local event = {'type', 'TRIGGER_ENDED', 'triggerId', ARGV[1], 'jobId', ARGV[2]}
  for k = 1, #fields, 2 do
    local name = fields[k]
    if name ~= 'id' and name ~= 'jobId' and name ~= 'quietSuccess' and name ~= 'targetSlot' then
      event[#event + 1] = name
      event[#event + 1] = fields[k + 1]
    end
  end
  event[#event + 1] = 'ms'
  event[#event + 1] = ARGV[3]
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[5], '*', unpack(event))
  local j = redis.call('HMGET', KEYS[5], 'scheduleType', 'schedule', 'scheduleVersion',
    'retryCount')
  local score = redis.call('ZSCORE', KEYS[4], ARGV[2])
  local retried = tonumber(t[3] or '1') <= tonumber(j[4] or '0')
  if j[1] == 'FIXED_DELAY' and j[3] == t[2] and not retried
      and (score == 'inf' or score == '+inf') then
    local nextMs = now + tonumber(j[2])
    redis.call('ZADD', KEYS[4], 'XX', nextMs, ARGV[2])
    redis.call('HSET', KEYS[5], 'nextFireMs', nextMs)
  end
end
return 1
