-- claim_fires.lua: the leader claims the due fires of a batch of jobs of ONE shard, each fire
-- exactly once, fenced by its term. One call per shard per batch.
--
-- KEYS[1]  kairos:{s}:fence    STRING  highest term that wrote to the shard
-- KEYS[2]  kairos:{s}:due      ZSET    job id -> next fire ms (+inf = parked)
-- KEYS[3]  kairos:{s}:nodes    SET     node names owning wheel/inflight keys in the shard
-- KEYS[4]  kairos:{s}:adhoc    ZSET    ad-hoc trigger id -> due ms (only when A > 0)
-- KEYS[5]  kairos:{s}:events   STREAM  (only when S > 0)
--
-- ARGV[1]  term of the caller
-- ARGV[2]  now, epoch ms (cluster time)
-- ARGV[3]  dedup window D in ms: trigger records expire at fireMs + D
-- ARGV[4]  job key prefix          kairos:{s}:job:
-- ARGV[5]  trigger key prefix      kairos:{s}:trigger:
-- ARGV[6]  wheel key prefix        kairos:{s}:wheel:
-- ARGV[7]  tombstone key prefix    kairos:{s}:ended:     (RedisKeys.ended)
-- ARGV[8]  tombstone bucket width in ms                  (RedisKeys.ENDED_BUCKET_MS)
-- ARGV[9]  job trigger index prefix kairos:{s}:jobtriggers:
-- ARGV[10] job trigger index size: the newest this many triggers of a job are kept
-- ARGV[11] J, the number of jobs that follow; then per job:
--            jobId, expected due score (ms), new due score, expected scheduleVersion, F,
--            then F pairs: fireMs, node
--          new due score: a number of ms, "+inf" to park (FIXED_DELAY waits for its trigger
--          to end), or "remove" (a finished ONE_SHOT leaves the due set)
-- then, optionally (absent = 0):
--          A, the number of ad-hoc triggers that follow; the ad-hoc request prefix
--          kairos:{s}:adhocreq:; then A pairs: triggerId, node
-- then, optionally (absent = 0; only a batch with a job whose calendars exclude a fire has it):
--          S, the number of calendar skips that follow; the approximate MAXLEN of the events
--          stream; then S triples: job index j (1-based, into the jobs above), fireMs, calendar
--
-- Per calendar skip whose job j passed its CAS: unless the trigger record (or its tombstone)
-- exists, the fire is recorded final SKIPPED (id, jobId, fireMs, state, scheduleVersion, term,
-- claimedMs = endedMs = now, attempt 1, calendar, message), enters the job's trigger index, and
-- its TRIGGER_ENDED event (every field of the record) is appended: the history keeps it and the
-- lifecycle ignores it. No wheel entry: it is never dispatched. A fire already CLAIMED before
-- its calendar was written is left to run.
--
-- Per job, a CAS: the job is skipped (nothing written) unless its current due score equals
-- the expected one and its scheduleVersion is unchanged, so two scanners of the same term, or
-- a scan racing an API update, claim a fire at most once. A fire whose trigger record (or, once
-- its history is synced, its tombstone) already exists is not claimed again (counted as a
-- duplicate), except a scheduled one still CLAIMED under an older schedule version: it is adopted
-- at the current version (no new wheel entry), so an update does not drop the fires already
-- claimed for instants the current schedule also fires at.
--
-- Per ad-hoc trigger (submit_adhoc.lua wrote its request), a CAS on its ad-hoc entry: only the
-- call that removes the entry claims it, so racing scanners claim it once. The claim writes the
-- wheel entry at the due score, the trigger record (CLAIMED, with kind, attempt, parent, depth,
-- params override, target slot and schedule version from the request, TTL max(due, now) + D) and
-- deletes the request. An entry without a request, or whose record already exists, is removed
-- without a claim.
--
-- Every claimed trigger enters its job's trigger index (score = fire time), trimmed to the
-- newest ARGV[10] now and then and kept a minute past its newest record's expiry. A claim writes
-- no stream event: the history learns of a trigger from its one TRIGGER_ENDED event.
-- A record is claimed with quietSuccess = 1 when a SUCCESS of it needs no lifecycle reaction (its
-- job has no child jobs and is not FIXED_DELAY); complete_trigger.lua passes that on.
--
-- Returns {0, fence}                                  rejected: term < fence, nothing written
--         {1, term, duplicates, r_1, ..., r_J, a_1, ..., a_A}
--                                                     r_j = fires claimed for job j, or -1
--                                                     when job j was skipped by the CAS;
--                                                     a_k = 1 when ad-hoc k was claimed, else 0
--         followed, when S > 0, by the number of fires recorded SKIPPED

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
local jobPrefix, triggerPrefix, wheelPrefix = ARGV[4], ARGV[5], ARGV[6]
local endedPrefix, bucketMs = ARGV[7], tonumber(ARGV[8])
local indexPrefix, indexSize = ARGV[9], tonumber(ARGV[10])
local jobs = tonumber(ARGV[11])
local due, nodes = KEYS[2], KEYS[3]

local result = {1, term, 0}
local duplicates = 0
local knownNodes = {}

local function onWheel(node, fireMs, triggerId)
  redis.call('ZADD', wheelPrefix .. node, fireMs, triggerId)
  if not knownNodes[node] then
    redis.call('SADD', nodes, node)
    knownNodes[node] = true
  end
end

-- A SUCCESS of this job needs no lifecycle reaction: no child jobs and not FIXED_DELAY.
local function quietOf(childJobIds, scheduleType)
  if (childJobIds == nil or childJobIds == false or childJobIds == '') and
      scheduleType ~= 'FIXED_DELAY' then
    return '1'
  end
  return '0'
end

local function index(jobId, triggerId, fireMs)
  local key = indexPrefix .. jobId
  redis.call('ZADD', key, fireMs, triggerId)
  -- Trimmed a quarter past the size at a time, so a job firing often pays one trim per that many
  -- claims instead of one per claim.
  if redis.call('ZCARD', key) > indexSize + math.floor(indexSize / 4) then
    redis.call('ZREMRANGEBYRANK', key, 0, -(indexSize + 1))
  end
  -- Expires a minute after its newest record would, re-armed only when that moves past it.
  local expireAt = math.max(tonumber(fireMs), now) + dedup
  local ttl = redis.call('PTTL', key)
  if ttl < 0 or now + ttl < expireAt then
    redis.call('PEXPIREAT', key, expireAt + 60000)
  end
end

local function tombstoned(triggerId, fireMs)
  local bucket = math.floor(tonumber(fireMs) / bucketMs)
  return redis.call('HEXISTS', endedPrefix .. bucket, triggerId) == 1
end

local jobIds, jobVersions = {}, {}
local i = 12
for _ = 1, jobs do
  local jobId, expected, newScore, version = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local fires = tonumber(ARGV[i + 4])
  local firstFire = i + 5
  i = firstFire + 2 * fires
  jobIds[#jobIds + 1] = jobId
  jobVersions[#jobVersions + 1] = version

  local jobKey = jobPrefix .. jobId
  local current = redis.call('ZSCORE', due, jobId)
  local job = redis.call('HMGET', jobKey, 'scheduleVersion', 'childJobIds', 'scheduleType')
  if (not current) or tonumber(current) ~= tonumber(expected) or job[1] ~= version then
    result[#result + 1] = -1
  else
    local quiet = quietOf(job[2], job[3])
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
          -- Claimed under an older schedule version and not yet taken (an update between its
          -- claim and its fire time): the current schedule fires at this instant too, so the fire
          -- is adopted at the current version and its wheel entry fires it. Left alone, take_due
          -- would drop it as stale and nothing would claim it again.
          redis.call('HSET', triggerKey, 'scheduleVersion', version, 'term', term)
          claimed = claimed + 1
          lastFire = fireMs
        else
          duplicates = duplicates + 1
        end
      elseif tombstoned(triggerId, fireMs) then
        duplicates = duplicates + 1
      else
        onWheel(node, fireMs, triggerId)
        redis.call('HSET', triggerKey,
          'id', triggerId, 'jobId', jobId, 'fireMs', fireMs, 'state', 'CLAIMED',
          'scheduleVersion', version, 'node', node, 'term', term, 'claimedMs', now,
          'attempt', 1, 'quietSuccess', quiet)
        redis.call('PEXPIREAT', triggerKey, math.max(tonumber(fireMs), now) + dedup)
        index(jobId, triggerId, fireMs)
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
  local score = redis.call('ZSCORE', KEYS[4], triggerId)
  if score then
    redis.call('ZREM', KEYS[4], triggerId)
    local requestKey = requestPrefix .. triggerId
    local r = redis.call('HMGET', requestKey, 'jobId', 'attempt', 'kind', 'depth', 'requestedMs',
      'parentTriggerId', 'scheduleVersion', 'params', 'targetSlot')
    redis.call('DEL', requestKey)
    local triggerKey = triggerPrefix .. triggerId
    if r[1] and redis.call('EXISTS', triggerKey) == 0 then
      local fireMs = score
      onWheel(node, fireMs, triggerId)
      local job = redis.call('HMGET', jobPrefix .. r[1], 'childJobIds', 'scheduleType')
      local record = {'id', triggerId, 'jobId', r[1], 'fireMs', fireMs, 'state', 'CLAIMED',
        'node', node, 'term', term, 'claimedMs', now, 'attempt', r[2], 'kind', r[3],
        'depth', r[4], 'requestedMs', r[5], 'quietSuccess', quietOf(job[1], job[2])}
      if r[6] then
        record[#record + 1] = 'parentTriggerId'
        record[#record + 1] = r[6]
      end
      if r[7] then
        record[#record + 1] = 'scheduleVersion'
        record[#record + 1] = r[7]
      end
      if r[8] then
        record[#record + 1] = 'params'
        record[#record + 1] = r[8]
      end
      if r[9] then
        record[#record + 1] = 'targetSlot'
        record[#record + 1] = r[9]
      end
      redis.call('HSET', triggerKey, unpack(record))
      redis.call('PEXPIREAT', triggerKey, math.max(tonumber(fireMs), now) + dedup)
      index(r[1], triggerId, fireMs)
      claimed = 1
    else
      duplicates = duplicates + 1
    end
  end
  result[#result + 1] = claimed
end

local skips = tonumber(ARGV[i] or '0')
local maxlen = ARGV[i + 1]
i = i + 2
local skippedRecorded = 0
for _ = 1, skips do
  local j, fireMs, calendar = tonumber(ARGV[i]), ARGV[i + 1], ARGV[i + 2]
  i = i + 3
  local jobId = jobIds[j]
  local triggerId = jobId .. ':' .. fireMs
  local triggerKey = triggerPrefix .. triggerId
  if result[3 + j] ~= -1 and redis.call('EXISTS', triggerKey) == 0
      and not tombstoned(triggerId, fireMs) then
    local message = 'skipped: calendar ' .. calendar .. ' excludes this fire'
    local record = {'fireMs', fireMs, 'state', 'SKIPPED', 'scheduleVersion', jobVersions[j],
      'term', term, 'claimedMs', now, 'endedMs', now, 'attempt', 1, 'calendar', calendar,
      'message', message}
    redis.call('HSET', triggerKey, 'id', triggerId, 'jobId', jobId, unpack(record))
    redis.call('PEXPIREAT', triggerKey, math.max(tonumber(fireMs), now) + dedup)
    index(jobId, triggerId, fireMs)
    local event = {'type', 'TRIGGER_ENDED', 'triggerId', triggerId, 'jobId', jobId}
    for k = 1, #record do
      event[#event + 1] = record[k]
    end
    event[#event + 1] = 'ms'
    event[#event + 1] = now
    redis.call('XADD', KEYS[5], 'MAXLEN', '~', maxlen, '*', unpack(event))
    skippedRecorded = skippedRecorded + 1
  end
end

result[3] = duplicates
if skips > 0 then
  result[#result + 1] = skippedRecorded
end
return result
