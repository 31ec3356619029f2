-- verify_job_ids.lua: checks one chunk of a shard's ordered job index against the job hashes,
-- atomically: an id whose job is gone is removed, every other job's '<app>:<id>' is (re)added to
-- the per-app index. JobIndexRepair walks the index with it, chunk after chunk, after moving a
-- legacy SET in (a job deleted through an older node left its id behind).
--
-- KEYS[1]  kairos:{s}:ids      ZSET  ids of the shard's jobs, score 0
-- KEYS[2]  kairos:{s}:appids   ZSET  '<app>:<id>' of the shard's jobs, score 0
--
-- ARGV[1]  the shard's job key prefix, kairos:{s}:job:
-- ARGV[2]  the last id of the previous chunk, '' to start at the first
-- ARGV[3]  most ids examined
--
-- Returns {examined, removed, last id examined ('' when none)}

local index, appIndex = KEYS[1], KEYS[2]
local prefix, after, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])

local from = '-'
if after ~= '' then
  from = '(' .. after
end
local ids = redis.call('ZRANGEBYLEX', index, from, '+', 'LIMIT', 0, limit)
local removed = 0
for _, id in ipairs(ids) do
  local app = redis.call('HGET', prefix .. id, 'app')
  if app then
    redis.call('ZADD', appIndex, 0, app .. ':' .. id)
  else
    redis.call('ZREM', index, id)
    removed = removed + 1
  end
end
return {#ids, removed, ids[#ids] or ''}
