-- Writes a workflow definition with optimistic concurrency, and its entry in the due ZSET.
-- KEYS[1] kairos:{workflows}:defs      HASH id -> definition JSON (version 0 inside)
-- KEYS[2] kairos:{workflows}:versions  HASH id -> version
-- KEYS[3] kairos:{workflows}:due       ZSET id -> next fire ms
-- ARGV[1] workflow id
-- ARGV[2] mode: "create" (must not exist) or "update" (must exist at ARGV[3])
-- ARGV[3] expected version (update)
-- ARGV[4] definition JSON
-- ARGV[5] next fire ms, or "" for none (API-only or disabled: the due entry is removed)
-- Returns the new version; -1 exists (create), -2 not found (update), -3 version conflict.
local cur = redis.call('HGET', KEYS[2], ARGV[1])
if ARGV[2] == 'create' then
  if cur then return -1 end
else
  if not cur then return -2 end
  if cur ~= ARGV[3] then return -3 end
end
local v = (tonumber(cur) or 0) + 1
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[1], v)
if ARGV[5] == '' then
  redis.call('ZREM', KEYS[3], ARGV[1])
else
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
end
return v
