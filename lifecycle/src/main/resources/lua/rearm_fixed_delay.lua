-- rearm_fixed_delay.lua: puts a parked FIXED_DELAY job back on its schedule when the trigger
-- chain that parked it has ended (the lifecycle worker calls it at the end of a chain: a final
-- state with no retry following). Idempotent: a replayed call finds the job no longer parked.
--
-- KEYS[1]  kairos:{s}:job:<jobId>  HASH  the job
-- KEYS[2]  kairos:{s}:due          ZSET  job id -> next fire ms (+inf = parked)
--
-- ARGV[1]  job id
-- ARGV[2]  schedule version the chain's first fire was claimed under
-- ARGV[3]  fire time of the chain's first fire (the claim set the job's lastFireMs to it)
-- ARGV[4]  next fire, epoch ms: end time + delay after a run, now + delay otherwise
--
-- Re-arms only a job that is still FIXED_DELAY, enabled, at that schedule version, parked
-- (score +inf), and whose last claimed fire is the chain's own (a later claim means the job was
-- re-armed already and is parked by a newer fire: a replayed event must not release it).
--
-- Returns 1 re-armed, 0 nothing to do

local job, due = KEYS[1], KEYS[2]
local j = redis.call('HMGET', job, 'scheduleType', 'scheduleVersion', 'enabled', 'lastFireMs')
if j[1] ~= 'FIXED_DELAY' or j[2] ~= ARGV[2] or j[3] ~= 'true' then
  return 0
end
if j[4] and j[4] ~= ARGV[3] then
  return 0
end
local score = redis.call('ZSCORE', due, ARGV[1])
if score ~= 'inf' and score ~= '+inf' then
  return 0
end
redis.call('ZADD', due, 'XX', ARGV[4], ARGV[1])
redis.call('HSET', job, 'nextFireMs', ARGV[4])
return 1
