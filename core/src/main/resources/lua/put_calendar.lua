-- put_calendar.lua: creates or replaces one calendar, compare-and-set on its version.
--
-- KEYS[1]  kairos:{cal}:defs     HASH    calendar name -> JSON (CalendarDefinition)
-- KEYS[2]  kairos:{cal}:version  STRING  counter bumped by every calendar write
--
-- ARGV[1]  calendar name
-- ARGV[2]  the new JSON, its version field = ARGV[3] + 1
-- ARGV[3]  the version the caller read: 0 when the calendar did not exist
--
-- Returns the new value of the version counter, or -1 when the stored calendar's version is not
-- ARGV[3] (a concurrent write won): nothing written.

local current = redis.call('HGET', KEYS[1], ARGV[1])
local version = 0
if current then
  version = tonumber(cjson.decode(current).version) or 0
end
if version ~= tonumber(ARGV[3]) then
  return -1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('INCR', KEYS[2])
