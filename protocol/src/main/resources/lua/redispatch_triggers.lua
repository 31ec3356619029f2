-- redispatch_triggers.lua: the leader's lost-trigger monitor records that it is about to publish
-- DISPATCHED triggers of ONE shard again, with the same trigger id, fenced by its term. The
-- monitor publishes only what this script accepted, so a stale leader publishes nothing.
--
-- KEYS[1]  kairos:{s}:fence    STRING  highest term that wrote to the shard
-- KEYS[2]  kairos:{s}:open     ZSET    open triggers
-- KEYS[3]  kairos:{s}:events   STREAM
--
-- ARGV[1]  term of the caller
-- ARGV[2]  now, epoch ms (cluster time)
-- ARGV[3]  dedup window D in ms
-- ARGV[4]  approximate MAXLEN of the events stream
-- ARGV[5]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[6]  job key prefix      kairos:{s}:job:
-- ARGV[7]  N, then N pairs: triggerId, target slot (-1: no live executor hosts it any more)
--
-- Per trigger:
--   DISPATCHED, fire time within D -> slot = target, dispatchedMs = now, redispatches + 1,
--                                     re-scored in the open index (no event) => accepted
--   DISPATCHED, fire time older than D -> EXPIRED (an executor would refuse to start it),
--                                     leaves the open index, TRIGGER_ENDED   => expired
--   DISPATCHED, target slot -1          -> NO_EXECUTOR (no live executor of the app hosts the
--                                     handler since the start timeout; the retry policy decides),
--                                     leaves the open index, TRIGGER_ENDED   => no executor
--   anything else (started, final, gone)  -> unchanged                       => skipped
--
-- Returns {0, fence}                  rejected: term < fence, nothing written
--         {1, term, r_1, ..., r_N}    r_i = {0} skipped, {2} expired, {3} no executor, or
--           {1, app, handler, params, block, timeoutMs, attempt, fireMs, jobId}  accepted
--           (the job's CURRENT dispatch fields, as take_due returns them; "" when missing)

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
local triggerPrefix, jobPrefix = ARGV[5], ARGV[6]
local n = tonumber(ARGV[7])

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
  local id, slot = ARGV[8 + 2 * k], ARGV[9 + 2 * k]
  local key = triggerPrefix .. id
  local t = redis.call('HMGET', key, 'state', 'fireMs', 'jobId', 'attempt')
  if t[1] ~= 'DISPATCHED' then
    result[#result + 1] = {0}
  else
    local fire = tonumber(t[2]) or tonumber(string.match(id, '^[^:]+:(%d+)')) or now
    local jobId = t[3] or string.match(id, '^([^:]+):')
    if now - fire > window then
      redis.call('HSET', key, 'state', 'EXPIRED', 'endedMs', now,
        'message', 'never started within the dedup window')
      redis.call('ZREM', open, id)
      ended(key, id, jobId)
      result[#result + 1] = {2}
    elseif slot == '-1' then
      local message = 'no live executor hosts the handler'
      redis.call('HSET', key, 'state', 'NO_EXECUTOR', 'endedMs', now, 'message', message)
      redis.call('PEXPIREAT', key, math.max(fire + window, now + window))
      redis.call('ZREM', open, id)
      ended(key, id, jobId)
      result[#result + 1] = {3}
    else
      redis.call('HSET', key, 'slot', slot, 'dispatchedMs', now)
      redis.call('HINCRBY', key, 'redispatches', 1)
      redis.call('ZADD', open, now, id)
      local j = redis.call('HMGET', jobPrefix .. jobId,
        'app', 'handler', 'params', 'block', 'timeoutMs')
      result[#result + 1] = {1, j[1] or '', j[2] or '', j[3] or '', j[4] or '', j[5] or '',
        t[4] or '1', tostring(fire), jobId}
    end
  end
end
return result
