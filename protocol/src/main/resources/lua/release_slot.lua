-- release_slot: give a slot back on orderly shutdown, compare-and-delete on the instance id.
--
-- KEYS[1]  the app's slot HASH (see claim_slot.lua)
-- ARGV[1]  slot index
-- ARGV[2]  instance id of the caller
--
-- Returns 1 when the caller's lease was removed, 0 when the slot was not the caller's (already
-- expired and claimed by another instance, which must keep it).
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then
  return 0
end
local ok, lease = pcall(cjson.decode, raw)
if ok and type(lease) == 'table' and lease.instanceId == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 1
end
return 0
