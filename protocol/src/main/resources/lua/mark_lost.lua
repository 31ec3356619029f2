-- mark_lost.lua: the leader's lost-trigger monitor ends RUNNING triggers of ONE shard whose
-- executor's slot lease died, fenced by its term. Forward only: a trigger that ended meanwhile,
-- or was started again by another executor, is left alone.
--
-- KEYS[1]  kairos:{s}:fence    STRING  highest term that wrote to the shard
-- KEYS[2]  kairos:{s}:open     ZSET    open triggers
-- KEYS[3]  kairos:{s}:events   STREAM
--
-- ARGV[1]  term of the caller
-- ARGV[2]  now, epoch ms (cluster time)
-- ARGV[3]  dedup window D in ms (the record is kept D past the change)
-- ARGV[4]  approximate MAXLEN of the events stream
-- ARGV[5]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[6]  N, then N triples: triggerId, executor expected on the record, message
--
-- Per trigger: RUNNING by the expected executor -> LOST (endedMs, message), or CANCELLED when an
-- operator had asked to cancel it (the retry policy must not run it again); it leaves the open
-- index and its TRIGGER_ENDED event is appended (the lifecycle worker turns LOST into a retry).
-- The executor's late result, if it ever comes, is recorded beside it (complete_trigger LATE).
--
-- Returns {0, fence}                 rejected: term < fence, nothing written
--         {1, term, r_1, ..., r_N}   r_i = "LOST" | "CANCELLED" | "" (left alone)

local term = tonumber(ARGV[1])
local fence = tonumber(redis.call('GET', KEYS[1]) or '0')
if term < fence then
  return {0, fence}
end
if term > fence then
  redis.call('SET', KEYS[1], term)
end

local open, events = KEYS[2], KEYS[3]
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local maxlen = ARGV[4]
local triggerPrefix = ARGV[5]
local n = tonumber(ARGV[6])

-- The trigger's one TRIGGER_ENDED event: every field its record holds.
local function ended(key, id, jobId)
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
end

local result = {1, term}
for k = 0, n - 1 do
  local id, executor, message = ARGV[7 + 3 * k], ARGV[8 + 3 * k], ARGV[9 + 3 * k]
  local key = triggerPrefix .. id
  local t = redis.call('HMGET', key, 'state', 'executor', 'jobId', 'fireMs', 'cancelRequested')
  if t[1] ~= 'RUNNING' or t[2] ~= executor then
    result[#result + 1] = ''
  else
    local final = 'LOST'
    if t[5] then
      final = 'CANCELLED'
      message = 'cancelled; ' .. message
    end
    local fire = tonumber(t[4]) or now
    redis.call('HSET', key, 'state', final, 'endedMs', now, 'message', message)
    redis.call('PEXPIREAT', key, math.max(fire + window, now + window))
    redis.call('ZREM', open, id)
    ended(key, id, t[3] or string.match(id, '^([^:]+):'))
    result[#result + 1] = final
  end
end
return result
