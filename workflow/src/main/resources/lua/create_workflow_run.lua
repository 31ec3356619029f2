-- Creates a workflow run unless it exists (a scheduled run's id is deterministic, so a second
-- leader re-creating it changes nothing).
-- KEYS[1] kairos:{wfrun:<runId>}:run  HASH run (JSON), rev
-- ARGV[1] run JSON
-- Returns 1 created, 0 it existed.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'run', ARGV[1], 'rev', 1)
return 1
