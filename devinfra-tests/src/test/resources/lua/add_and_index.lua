-- Adds ARGV[1] to the counter and records the new total in the index, atomically.
-- KEYS[1]: counter (string holding an integer)
-- KEYS[2]: index (ZSET; member "total", score = the new counter value)
-- ARGV[1]: amount to add
-- Returns the new counter value.
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], total, 'total')
return total
