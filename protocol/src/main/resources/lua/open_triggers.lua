-- open_triggers.lua: the lost-trigger monitor reads one page of a shard's open triggers (those
-- DISPATCHED or RUNNING), oldest first, with what it needs to judge them.
--
-- KEYS[1]  kairos:{s}:open     ZSET  trigger id -> last dispatch or start time (ms)
--
-- ARGV[1]  offset into the index (0 for the first page)
-- ARGV[2]  limit: at most this many entries per call
-- ARGV[3]  trigger key prefix  kairos:{s}:trigger:
-- ARGV[4]  job key prefix      kairos:{s}:job:
--
-- An entry whose record is gone (expired) or no longer DISPATCHED/RUNNING is removed from the
-- index instead of returned: scripts that end a trigger remove it themselves, this only repairs
-- what a record's expiry left behind, so it is right under any term and needs no fence.
--
-- Returns {read, removed, row_1, ..., row_n}: read = entries examined (a page is full when
--         read == limit); each row is
--         {triggerId, state, slot, executor, score, fireMs, jobId, app, handler, cancelRequested}
--         (a missing field is returned as "")

local open = KEYS[1]
local triggerPrefix, jobPrefix = ARGV[3], ARGV[4]
local entries = redis.call('ZRANGE', open, tonumber(ARGV[1]),
  tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1, 'WITHSCORES')
local result = {0, 0}
local read, removed = 0, 0
for i = 1, #entries, 2 do
  local id, score = entries[i], entries[i + 1]
  read = read + 1
  local t = redis.call('HMGET', triggerPrefix .. id,
    'state', 'slot', 'executor', 'fireMs', 'jobId', 'cancelRequested')
  local state = t[1]
  if state ~= 'DISPATCHED' and state ~= 'RUNNING' then
    redis.call('ZREM', open, id)
    removed = removed + 1
  else
    local jobId = t[5] or string.match(id, '^([^:]+):')
    local j = redis.call('HMGET', jobPrefix .. jobId, 'app', 'handler')
    result[#result + 1] = {id, state, t[2] or '', t[3] or '', score,
      t[4] or string.match(id, '^[^:]+:(%d+)') or '0', jobId, j[1] or '', j[2] or '', t[6] or ''}
  end
end
result[1] = read
result[2] = removed
return result
