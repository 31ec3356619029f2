-- renew_slot: extend a slot lease, compare-and-set on the holder's instance id.
--
-- KEYS[1]  the app's slot HASH (see claim_slot.lua)
-- ARGV[1]  slot index
-- ARGV[2]  instance id of the caller
-- ARGV[3]  lease TTL in ms
-- ARGV[4]  busy flag of the caller: "1" or "0" (read by the BUSYOVER router)
-- ARGV[5]  receive progress of the caller, a JSON object handler -> epoch ms: every message sent to
--          this slot's queue of the handler's topic before that time has been received (read by
--          the lost-trigger monitor to tell a backlog from a lost message). Replaces the stored
--          one; absent or unreadable leaves the stored one alone.
--
-- A lease renews only while it is held by the caller and not yet expired by this server's TIME:
-- once expired, another instance may already have been routed around it or be claiming it, so the
-- caller has to claim again instead of silently resuming.
--
-- Returns {1, nowMs, expiresMs} when renewed; {0, nowMs, 0} when the lease is lost.
redis.replicate_commands()

local key = KEYS[1]
local field = ARGV[1]
local ttl = tonumber(ARGV[3])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local raw = redis.call('HGET', key, field)
if not raw then
  return {0, now, 0}
end
local ok, lease = pcall(cjson.decode, raw)
if not ok or type(lease) ~= 'table' or lease.instanceId ~= ARGV[2]
    or tonumber(lease.expiresMs) == nil or tonumber(lease.expiresMs) <= now then
  return {0, now, 0}
end

lease.lastRenewalMs = now
lease.expiresMs = now + ttl
lease.busy = ARGV[4] == '1'
if ARGV[5] and ARGV[5] ~= '' then
  local decoded, progress = pcall(cjson.decode, ARGV[5])
  if decoded and type(progress) == 'table' then
    lease.progress = progress -- an empty object comes back as {} (cjson cannot tell {} from [])
  end
end
redis.call('HSET', key, field, cjson.encode(lease))
return {1, now, now + ttl}
