-- index_legacy_jobs.lua: moves ids of a shard's legacy job SET (written by versions before the
-- ordered job index) into the ordered indexes, atomically per call. JobIndexRepair calls it at
-- node start with ids read from the SET (SRANDMEMBER) until the SET is gone.
--
-- KEYS[1]  kairos:{s}:jobs     SET   legacy job ids: every id passed is removed from it
-- KEYS[2]  kairos:{s}:ids      ZSET  ids of the shard's jobs, score 0
-- KEYS[3]  kairos:{s}:appids   ZSET  '<app>:<id>' of the shard's jobs, score 0
--
-- ARGV[1]  the shard's job key prefix, kairos:{s}:job:
-- ARGV[2..] job ids read from KEYS[1]
--
-- An id whose job hash is gone (deleted meanwhile) is only taken off the SET, so a delete racing
-- the move leaves nothing behind; a job created meanwhile by a new node is indexed by its own
-- script, one created by an old node lands in the SET and is moved by the next call. Idempotent.
--
-- Returns the number of ids indexed

local legacy, index, appIndex = KEYS[1], KEYS[2], KEYS[3]
local prefix = ARGV[1]

local indexed = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  local app = redis.call('HGET', prefix .. id, 'app')
  if app then
    redis.call('ZADD', index, 0, id)
    redis.call('ZADD', appIndex, 0, app .. ':' .. id)
    indexed = indexed + 1
  end
  redis.call('SREM', legacy, id)
end
return indexed
