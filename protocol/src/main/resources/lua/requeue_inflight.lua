-- requeue_inflight.lua: node N's inflight sweeper puts entries whose send never completed (the
-- send failed or timed out on a live node) back on N's wheel to be re-sent with the SAME
-- trigger id; take_due then re-checks them for staleness and reads the current params.
--
-- KEYS[1]  kairos:{s}:inflight:<N>  ZSET  trigger id -> ms it was taken off the wheel
-- KEYS[2]  kairos:{s}:wheel:<N>     ZSET  trigger id -> fire ms
--
-- ARGV[1]  olderThan: entries taken off the wheel at or before this ms are requeued
-- ARGV[2]  limit: at most this many entries per call
--
-- Returns {triggerId_1, fireMs_1, triggerId_2, fireMs_2, ...}: the entries now back on the
-- wheel at their original fire time (already due, so the node sends them at once)

local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local result = {}
for _, triggerId in ipairs(ids) do
  -- Trigger ids start with <jobId>:<fireMs>; job ids never contain ':'.
  local fireMs = string.match(triggerId, '^[^:]+:(%d+)')
  redis.call('ZREM', KEYS[1], triggerId)
  redis.call('ZADD', KEYS[2], fireMs, triggerId)
  result[#result + 1] = triggerId
  result[#result + 1] = fireMs
end
return result
