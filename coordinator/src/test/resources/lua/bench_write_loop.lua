-- bench_write_loop.lua (test only): a yardstick for the claim benchmark. Writes ARGV[1] plain
-- SETs in one script so the cost of one scripted write on this machine, at this load, can be
-- compared with the cost of one claimed fire.
--
-- KEYS[1]  key prefix (one hash tag)
-- ARGV[1]  number of SETs
--
-- Returns the number of SETs done

local n = tonumber(ARGV[1])
for i = 1, n do
  redis.call('SET', KEYS[1] .. i, i)
end
return n
