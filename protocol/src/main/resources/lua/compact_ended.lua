-- compact_ended.lua: persistence-sync replaces the records of scheduled triggers of ONE shard that
-- ended in SUCCESS, and whose history PostgreSQL now holds, by tombstones: what the once-only
-- checks need until the dedup window is over, at a twentieth of a record's memory.
--
-- KEYS[1]  kairos:{s}:events   STREAM  (not written: it routes the call to the shard's master)
--
-- ARGV[1]  trigger key prefix    kairos:{s}:trigger:
-- ARGV[2]  tombstone key prefix  kairos:{s}:ended:
-- ARGV[3]  tombstone bucket width in ms (RedisKeys.ENDED_BUCKET_MS)
-- ARGV[4]  dedup window D in ms
-- ARGV[5], ARGV[6], ...  pairs: trigger id, fire time (epoch ms, from its TRIGGER_ENDED event)
--
-- Per trigger: only a record that says SUCCESS, of a scheduled fire (no kind, or SCHEDULED: an
-- ad-hoc trigger's id does not tell its fire time, which a tombstone lookup needs) and without a
-- late result, is compacted: the record is deleted and field <trigger id> = SUCCESS is set in the
-- tombstone bucket of its fire time (kairos:{s}:ended:<fireMs / width>), which expires at the
-- bucket's end + D (after that, claim_start refuses the fire as EXPIRED anyway). Anything else —
-- a record already gone, another state, a replayed call — is left as it is.
--
-- Returns the number of records compacted.

local triggerPrefix, endedPrefix = ARGV[1], ARGV[2]
local bucketMs, window = tonumber(ARGV[3]), tonumber(ARGV[4])
local expiring = {}
local compacted = 0
for i = 5, #ARGV, 2 do
  local id, fire = ARGV[i], tonumber(ARGV[i + 1])
  local key = triggerPrefix .. id
  local t = redis.call('HMGET', key, 'state', 'kind', 'lateResult', 'fireMs')
  if t[1] == 'SUCCESS' and (not t[2] or t[2] == 'SCHEDULED') and not t[3] then
    local bucket = math.floor((tonumber(t[4]) or fire) / bucketMs)
    local tombs = endedPrefix .. bucket
    redis.call('HSET', tombs, id, 'SUCCESS')
    if not expiring[bucket] then
      redis.call('PEXPIREAT', tombs, (bucket + 1) * bucketMs + window)
      expiring[bucket] = true
    end
    redis.call('DEL', key)
    compacted = compacted + 1
  end
end
return compacted
