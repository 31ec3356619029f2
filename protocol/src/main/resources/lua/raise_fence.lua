-- raise_fence.lua: a leader of term T shuts lower terms out of one shard.
-- A new leader calls it on every shard before its first scan, so an old leader is rejected
-- everywhere at once instead of shard by shard as the new one happens to write.
--
-- KEYS[1]  kairos:{s}:fence   STRING, the highest leader term that has written to the shard
-- ARGV[1]  term T of the caller
--
-- Returns {1, T}      the fence now holds T (it was <= T)
--         {0, fence}  rejected: the shard is fenced by a higher term; nothing was written

local term = tonumber(ARGV[1])
local fence = tonumber(redis.call('GET', KEYS[1]) or '0')
if term < fence then
  return {0, fence}
end
if term > fence then
  redis.call('SET', KEYS[1], term)
end
return {1, term}
