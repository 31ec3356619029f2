-- alarm_window.lua: one alarm per key per window across every node of the cluster.
--
-- KEYS[1]  kairos:{alarm}:window:<alarm key>  HASH  openedMs, suppressed
--
-- ARGV[1]  now, epoch ms (the caller's cluster clock)
-- ARGV[2]  window W in ms
-- ARGV[3]  key TTL in ms: W + how long a suppressed count waits for the next alarm of its key
--
-- No window yet, or now >= openedMs + W: a new window opens at now and the suppressed count of
-- the previous one is handed to the caller (and reset), who delivers the alarm carrying it.
-- Otherwise the alarm is a duplicate and is counted. A clock that stepped back (now < openedMs)
-- keeps the window open: better one alarm late than a burst of duplicates. Every call refreshes
-- the TTL, so a key not raised for the TTL is forgotten together with its count.
--
-- Returns the suppressed count carried into the alarm to deliver (>= 0), or -1 for a duplicate.

local key = KEYS[1]
local now, window, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local current = redis.call('HMGET', key, 'openedMs', 'suppressed')
local opened = tonumber(current[1])
if opened == nil or now - opened >= window then
  local carried = tonumber(current[2]) or 0
  redis.call('HSET', key, 'openedMs', ARGV[1], 'suppressed', 0)
  redis.call('PEXPIRE', key, ttl)
  return carried
end
redis.call('HINCRBY', key, 'suppressed', 1)
redis.call('PEXPIRE', key, ttl)
return -1
