-- live_slots: the unexpired slot leases of one app, judged by the same server TIME that the
-- lease scripts use (a scheduler node's clock is not the lease clock).
--
-- KEYS[1]  the app's slot HASH (see claim_slot.lua)
--
-- Returns {nowMs, lease JSON, lease JSON, ...} in no particular order. Read-only: expired entries
-- stay until a claim overwrites them (at most Q fields per app).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local result = {now}
local all = redis.call('HGETALL', KEYS[1])
for i = 2, #all, 2 do
  local ok, lease = pcall(cjson.decode, all[i])
  if ok and type(lease) == 'table' and tonumber(lease.expiresMs) ~= nil
      and tonumber(lease.expiresMs) > now then
    result[#result + 1] = all[i]
  end
end
return result
