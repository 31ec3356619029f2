-- claim_fires.lua: the leader claims the due fires of a batch of jobs of ONE shard, each fire
-- exactly once, fenced by its term. One call per shard per batch.
--
-- KEYS[1]  kairos:{s}:fence    STRING  highest term that wrote to the shard
-- KEYS[2]  kairos:{s}:due      ZSET    job id -> next fire ms (+inf = parked)
-- KEYS[3]  kairos:{s}:events   STREAM  change events for persistence-sync
-- KEYS[4]  kairos:{s}:nodes    SET     node names owning wheel/inflight keys in the shard
-- KEYS[5]  kairos:{s}:adhoc    ZSET    ad-hoc trigger id -> due ms (only when A > 0)
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
-- then, optionally (absent = 0):
--          A, the number of ad-hoc triggers that follow; the ad-hoc request prefix
--          kairos:{s}:adhocreq:; then A pairs: triggerId, node
--
-- Per job, a CAS: the job is skipped (nothing written) unless its current due score equals
-- the expected one and its scheduleVersion is unchanged, so two scanners of the same term, or
-- a scan racing an API update, claim a fire at most once. A fire whose trigger record already
-- exists is not claimed again (counted as a duplicate), except a scheduled one still CLAIMED
-- under an older schedule version: it is adopted at the current version (no new wheel entry,
-- no event), so a disable and re-enable, or an update, does not drop the fires already claimed
-- for instants the current schedule also fires at.
--
-- Per ad-hoc trigger (submit_adhoc.lua wrote its request), a CAS on its ad-hoc entry: only the
-- call that removes the entry claims it, so racing scanners claim it once. The claim writes the
-- wheel entry at the due score, the trigger record (CLAIMED, with kind, attempt, parent, depth,
-- params override, target slot and schedule version from the request, TTL max(due, now) + D) and a
-- TRIGGER_CLAIMED event, and deletes the request. An entry without a request, or whose record
-- already exists, is removed without a claim.
--
-- Returns {0, fence}                                  rejected: term < fence, nothing written
--         {1, term, duplicates, r_1, ..., r_J, a_1, ..., a_A}
--                                                     r_j = fires claimed for job j, or -1
--                                                     when job j was skipped by the CAS;
--                                                     a_k = 1 when ad-hoc k was claimed, else 0

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
      local existing = redis.call('HMGET', triggerKey, 'state', 'scheduleVersion', 'kind')
      if existing[1] then
        if existing[1] == 'CLAIMED' and existing[2] ~= version
            and (not existing[3] or existing[3] == 'SCHEDULED') then
          -- Claimed under an older schedule version and not yet taken (a disable and re-enable,
          -- or an update, between its claim and its fire time): the current schedule fires at
          -- this instant too, so the fire is adopted at the current version and its wheel entry
          -- fires it. Left alone, take_due would drop it as stale and nothing would claim it again.
          redis.call('HSET', triggerKey, 'scheduleVersion', version, 'term', term)
          claimed = claimed + 1
          lastFire = fireMs
        else
          duplicates = duplicates + 1
        end
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

local adhocs = tonumber(ARGV[i] or '0')
local requestPrefix = ARGV[i + 1]
i = i + 2
for _ = 1, adhocs do
  local triggerId, node = ARGV[i], ARGV[i + 1]
  i = i + 2
  local claimed = 0
  local score = redis.call('ZSCORE', KEYS[5], triggerId)
  if score then
    redis.call('ZREM', KEYS[5], triggerId)
    local requestKey = requestPrefix .. triggerId
    local r = redis.call('HMGET', requestKey, 'jobId', 'attempt', 'kind', 'depth', 'requestedMs',
      'parentTriggerId', 'scheduleVersion', 'params', 'targetSlot')
    redis.call('DEL', requestKey)
    local triggerKey = triggerPrefix .. triggerId
    if r[1] and redis.call('EXISTS', triggerKey) == 0 then
      local fireMs = score
      redis.call('ZADD', wheelPrefix .. node, fireMs, triggerId)
      if not knownNodes[node] then
        redis.call('SADD', nodes, node)
        knownNodes[node] = true
      end
      local record = {'id', triggerId, 'jobId', r[1], 'fireMs', fireMs, 'state', 'CLAIMED',
        'node', node, 'term', term, 'claimedMs', now, 'attempt', r[2], 'kind', r[3],
        'depth', r[4], 'requestedMs', r[5]}
      local event = {'type', 'TRIGGER_CLAIMED', 'triggerId', triggerId, 'jobId', r[1],
        'state', 'CLAIMED', 'fireMs', fireMs, 'node', node, 'term', term, 'attempt', r[2],
        'kind', r[3], 'depth', r[4]}
      if r[6] then
        record[#record + 1] = 'parentTriggerId'
        record[#record + 1] = r[6]
        event[#event + 1] = 'parentTriggerId'
        event[#event + 1] = r[6]
      end
      if r[7] then
        record[#record + 1] = 'scheduleVersion'
        record[#record + 1] = r[7]
        event[#event + 1] = 'scheduleVersion'
        event[#event + 1] = r[7]
      end
      if r[8] then
        record[#record + 1] = 'params'
        record[#record + 1] = r[8]
      end
      if r[9] then
        record[#record + 1] = 'targetSlot'
        record[#record + 1] = r[9]
      end
      event[#event + 1] = 'ms'
      event[#event + 1] = now
      redis.call('HSET', triggerKey, unpack(record))
      redis.call('PEXPIREAT', triggerKey, math.max(tonumber(fireMs), now) + dedup)
      redis.call('XADD', events, 'MAXLEN', '~', maxlen, '*', unpack(event))
      claimed = 1
    else
      duplicates = duplicates + 1
    end
  end
  result[#result + 1] = claimed
end

result[3] = duplicates
return result
