-- finish_rebuild.lua: marks a shard initialised and releases the rebuild lock, only if the caller
-- still holds the lock (a rebuilder whose lock expired must not mark a rebuild it did not finish).
--
-- KEYS[1]  kairos:{s}:initialised    STRING  the shard's initialised marker
-- KEYS[2]  kairos:{s}:rebuild-lock   STRING  lock token
--
-- ARGV[1]  the caller's lock token
-- ARGV[2]  now, epoch ms (stored as the marker's value)
--
-- Returns 1 when marked, 0 when the caller no longer held the lock (nothing written)

if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
return 1
