-- set_pause.lua: an operator pauses or resumes all scheduling of the cluster.
--
-- KEYS[1]  kairos:{meta}   HASH  cluster metadata; fields paused, pausedMs, pausedBy
--
-- ARGV[1]  "pause" | "resume"
-- ARGV[2]  now, epoch ms (cluster time)
-- ARGV[3]  who asks (operator or node name; shown by health and the API)
--
-- pause:  paused = 1, pausedMs = now, pausedBy = ARGV[3]; pausing a paused cluster keeps the
--         original time and author (idempotent, so a retried request changes nothing).
-- resume: the three fields are removed.
--
-- Returns {changed (1|0), paused (1|0), pausedMs or 0, pausedBy or ""}

local key = KEYS[1]
local current = redis.call('HMGET', key, 'paused', 'pausedMs', 'pausedBy')
local paused = current[1] == '1'
if ARGV[1] == 'pause' then
  if paused then
    return {0, 1, tonumber(current[2]) or 0, current[3] or ''}
  end
  redis.call('HSET', key, 'paused', '1', 'pausedMs', ARGV[2], 'pausedBy', ARGV[3])
  return {1, 1, tonumber(ARGV[2]), ARGV[3]}
end
if not paused then
  return {0, 0, 0, ''}
end
redis.call('HDEL', key, 'paused', 'pausedMs', 'pausedBy')
return {1, 0, 0, ''}
