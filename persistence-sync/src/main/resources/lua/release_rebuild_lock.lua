-- release_rebuild_lock.lua: gives up a shard's rebuild lock after a failed rebuild (PostgreSQL
-- unreachable), only if the caller still holds it, so the next attempt need not wait for its TTL.
--
-- KEYS[1]  kairos:{s}:rebuild-lock   STRING  lock token
--
-- ARGV[1]  the caller's lock token
--
-- Returns 1 when released, 0 when the caller no longer held it

if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
