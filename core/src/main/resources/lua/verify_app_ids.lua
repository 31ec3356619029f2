-- verify_app_ids.lua: checks one chunk of a shard's per-app job index against the job hashes,
-- atomically: a '<app>:<id>' whose job is gone, or now names another app, is removed.
-- JobIndexRepair walks the index with it, chunk after chunk, after verify_job_ids.lua (a job
-- deleted or moved to another app through an older node left its entry behind).
--
-- KEYS[1]  kairos:{s}:appids   ZSET  '<app>:<id>' of the shard's jobs, score 0
--
-- ARGV[1]  the shard's job key prefix, kairos:{s}:job:
-- ARGV[2]  the last member of the previous chunk, '' to start at the first
-- ARGV[3]  most members examined
--
-- Returns {examined, removed, last member examined ('' when none)}

local appIndex = KEYS[1]
local prefix, after, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])

local from = '-'
if after ~= '' then
  from = '(' .. after
end
local members = redis.call('ZRANGEBYLEX', appIndex, from, '+', 'LIMIT', 0, limit)
local removed = 0
for _, member in ipairs(members) do
  -- An app name has no ':' (it is [A-Za-z0-9_.-]), so the first one separates app and id.
  local sep = string.find(member, ':', 1, true)
  local app = sep and redis.call('HGET', prefix .. string.sub(member, sep + 1), 'app')
  if not app or app ~= string.sub(member, 1, sep - 1) then
    redis.call('ZREM', appIndex, member)
    removed = removed + 1
  end
end
return {#members, removed, members[#members] or ''}
