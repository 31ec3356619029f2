-- delete_idle_consumer.lua: removes one consumer from a stream's consumer group if it owns no
-- pending entries and has been idle at least the given time. Atomic, so a consumer that reads
-- between the check and the delete cannot lose pending entries (DELCONSUMER drops them).
--
-- KEYS[1]  kairos:{s}:events   STREAM  the shard's event stream
--
-- ARGV[1]  group name
-- ARGV[2]  consumer name
-- ARGV[3]  minimum idle time, ms
--
-- Returns 1 when removed, 0 when the consumer is absent, has pending entries or is not idle enough

local consumers = redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])
for _, c in ipairs(consumers) do
  local name, pending, idle
  for i = 1, #c, 2 do
    if c[i] == 'name' then
      name = c[i + 1]
    elseif c[i] == 'pending' then
      pending = tonumber(c[i + 1])
    elseif c[i] == 'idle' then
      idle = tonumber(c[i + 1])
    end
  end
  if name == ARGV[2] then
    if pending == 0 and idle >= tonumber(ARGV[3]) then
      redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2])
      return 1
    end
    return 0
  end
end
return 0
