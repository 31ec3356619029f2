-- claim_fires.lua: the leader claims the due fires of a batch of jobs of ONE shard, each fire
-- exactly once, fenced by its term. One call per shard per batch.
--
-- KEYS[1]  kairos:{s}:fence    STRING  highest term that wrote to the shard
-- KEYS[2]  kairos:{s}:due      ZSET    job id -> next fire ms (+inf = parked)
-- KEYS[3]  kairos:{s}:events   STREAM  change events for persistence-sync
-- KEYS[4]  kairos:{s}:nodes    SET     node names owning wheel/inflight keys in the shard
--
-- ARGV[1]  term of the caller
-- ARGV[2]  now, epoch ms (cluster time)
-- ARGV[3]  dedup window D in ms: trigger records expire at fireMs + D
-- ARGV[4]  approximate MAXLEN of the events stream
-- ARGV[5]  job key prefix      kairos:{s}:job:
-- ARGV[6]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[7]  wheel key prefix    kairos:{s}:wheel:
-- ARGV[8]  J, the number of jobs that follow; then per job:
--            jobId, expected due score (ms), new due score, expected scheduleVersion, F,
--            then F pairs: fireMs, node
--          new due score: a number of ms, "+inf" to park (FIXED_DELAY waits for its trigger
--          to end), or "remove" (a finished ONE_SHOT leaves the due set)
--
-- Per job, a CAS: the job is skipped (nothing written) unless its current due score equals
-- the expected one and its scheduleVersion is unchanged, so two scanners of the same term, or
-- a scan racing an API update, claim a fire at most once. A fire whose trigger record already
-- exists is not claimed again (counted as a duplicate).
--
-- Returns {0, fence}                                  rejected: term < fence, nothing written
--         {1, term, duplicates, r_1, ..., r_J}        r_j = fires claimed for job j, or -1
--                                                     when job j was skipped by the CAS

local term = tonumber(ARGV[1])
local fence = tonumber(redis.call('GET', KEYS[1]) or '0')
if term < fence then
  return {0, fence}
end
if term > fence then
  redis.call('SET', KEYS[1], term)
end

local now = tonumber(ARGV[2])
local dedup = tonumber(ARGV[3])
local maxlen = ARGV[4]
local jobPrefix, triggerPrefix, wheelPrefix = ARGV[5], ARGV[6], ARGV[7]
local jobs = tonumber(ARGV[8])
local due, events, nodes = KEYS[2], KEYS[3], KEYS[4]

local result = {1, term, 0}
local duplicates = 0
local knownNodes = {}
local i = 9
for _ = 1, jobs do
  local jobId, expected, newScore, version = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local fires = tonumber(ARGV[i + 4])
  local firstFire = i + 5
  i = firstFire + 2 * fires

  local jobKey = jobPrefix .. jobId
  local current = redis.call('ZSCORE', due, jobId)
  local currentVersion = redis.call('HGET', jobKey, 'scheduleVersion')
  if (not current) or tonumber(current) ~= tonumber(expected) or currentVersion ~= version then
    result[#result + 1] = -1
  else
    local claimed = 0
    local lastFire = nil
    for f = 0, fires - 1 do
      local fireMs = ARGV[firstFire + 2 * f]
      local node = ARGV[firstFire + 2 * f + 1]
      local triggerId = jobId .. ':' .. fireMs
      local triggerKey = triggerPrefix .. triggerId
      if redis.call('EXISTS', triggerKey) == 1 then
        duplicates = duplicates + 1
      else
        redis.call('ZADD', wheelPrefix .. node, fireMs, triggerId)
        if not knownNodes[node] then
          redis.call('SADD', nodes, node)
          knownNodes[node] = true
        end
        redis.call('HSET', triggerKey,
          'id', triggerId, 'jobId', jobId, 'fireMs', fireMs, 'state', 'CLAIMED',
          'scheduleVersion', version, 'node', node, 'term', term, 'claimedMs', now,
          'attempt', 1)
        redis.call('PEXPIREAT', triggerKey, math.max(tonumber(fireMs), now) + dedup)
        redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*',
          'type', 'TRIGGER_CLAIMED', 'triggerId', triggerId, 'jobId', jobId,
          'state', 'CLAIMED', 'fireMs', fireMs, 'node', node, 'term', term,
          'scheduleVersion', version, 'attempt', 1, 'ms', now)
        claimed = claimed + 1
        lastFire = fireMs
      end
    end
    -- Runtime fields of the job hash in one write: each write in a script costs its propagation.
    local runtime = {}
    if newScore == 'remove' or newScore == '+inf' then
      if newScore == 'remove' then
        redis.call('ZREM', due, jobId)
      else
        redis.call('ZADD', due, '+inf', jobId)
      end
      redis.call('HDEL', jobKey, 'nextFireMs')
    else
      redis.call('ZADD', due, newScore, jobId)
      runtime[#runtime + 1] = 'nextFireMs'
      runtime[#runtime + 1] = newScore
    end
    if lastFire then
      runtime[#runtime + 1] = 'lastFireMs'
      runtime[#runtime + 1] = lastFire
    end
    if #runtime > 0 then
      redis.call('HSET', jobKey, unpack(runtime))
    end
    result[#result + 1] = claimed
  end
end
result[3] = duplicates
return result
