-- delete_calendar.lua: deletes one calendar. Jobs that still name it keep the name; the scan
-- treats a calendar it cannot find as excluding nothing.
--
-- KEYS[1]  kairos:{cal}:defs     HASH    calendar name -> JSON
-- KEYS[2]  kairos:{cal}:version  STRING  counter bumped by every calendar write
--
-- ARGV[1]  calendar name
--
-- Returns 1 when it existed and was deleted (the counter moves), else 0.

if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then
  redis.call('INCR', KEYS[2])
  return 1
end
return 0
