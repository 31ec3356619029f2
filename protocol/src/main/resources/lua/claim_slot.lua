-- claim_slot: give an executor instance the lowest free slot of its app.
--
-- KEYS[1]  the app's slot HASH (kairos:{app:<name>}:slots); field = slot index, value = lease JSON
--          {instanceId, host, handlers[], slot, lastRenewalMs, expiresMs, busy, progress{}}
--          progress = handler -> received-through time in epoch ms (see renew_slot.lua)
-- ARGV[1]  instance id of the caller
-- ARGV[2]  slot count Q: slots are 0..Q-1
-- ARGV[3]  lease TTL in ms
-- ARGV[4]  host of the caller (informational)
-- ARGV[5]  handlers the caller hosts, a JSON array of strings
--
-- A slot is free when its field is absent, unreadable, or expired by this server's TIME, so the
-- expiry is judged on one clock. An instance that already holds a live slot gets the same slot
-- back (a retried call after a lost reply must not take a second slot).
--
-- A new lease says "received nothing yet" (progress 0 for every handler), not "unknown": the
-- lost-trigger monitor then treats what waits in the slot's queue as backlog rather than as lost,
-- which matters most when a new instance takes over a dead one's queue.
--
-- Returns {slot, nowMs, expiresMs}; {-1, nowMs, 0} when all Q slots are held.
redis.replicate_commands()

local key = KEYS[1]
local instance = ARGV[1]
local count = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local free = -1
for slot = 0, count - 1 do
  local raw = redis.call('HGET', key, tostring(slot))
  local ok, lease = false, nil
  if raw then
    ok, lease = pcall(cjson.decode, raw)
  end
  local live = ok and type(lease) == 'table' and tonumber(lease.expiresMs) ~= nil
      and tonumber(lease.expiresMs) > now
  if live and lease.instanceId == instance then
    free = slot
    break
  end
  if not live and free < 0 then
    free = slot
  end
end

if free < 0 then
  return {-1, now, 0}
end

local handlers = cjson.decode(ARGV[5])
local progress = {}
for _, handler in ipairs(handlers) do
  progress[handler] = 0
end
local lease = {
  instanceId = instance,
  host = ARGV[4],
  handlers = handlers,
  slot = free,
  lastRenewalMs = now,
  expiresMs = now + ttl,
  busy = false,
  progress = progress
}
redis.call('HSET', key, tostring(free), cjson.encode(lease))
return {free, now, now + ttl}
