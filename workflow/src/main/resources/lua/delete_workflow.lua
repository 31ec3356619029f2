-- Deletes a workflow definition, its due entry and its run index (the runs expire by their TTL).
-- KEYS[1] kairos:{workflows}:defs
-- KEYS[2] kairos:{workflows}:versions
-- KEYS[3] kairos:{workflows}:due
-- KEYS[4] kairos:{workflows}:runs:<id>
-- ARGV[1] workflow id
-- ARGV[2] expected version, or "" for any
-- Returns 1 deleted, -2 not found, -3 version conflict.
local cur = redis.call('HGET', KEYS[2], ARGV[1])
if not cur then return -2 end
if ARGV[2] ~= '' and cur ~= ARGV[2] then return -3 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[4])
return 1
