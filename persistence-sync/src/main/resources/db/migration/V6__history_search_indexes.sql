-- History read side (issue #17 item 2): indexes for the trigger search across jobs and the
-- reports by app. Plain CREATE INDEX (Flyway runs each migration in a transaction, where
-- CONCURRENTLY is not allowed): it holds off the sync's writes while it builds, which the
-- write-behind absorbs (entries stay pending in Redis).

-- Searches by state(s) across jobs, newest fire first; kairos_trigger_failures covers only the
-- failure states and sorts ascending.
CREATE INDEX kairos_trigger_state_fire ON kairos_trigger (state, fire_ms DESC);

-- Searches and daily reports by app resolve the app's job ids first.
CREATE INDEX kairos_job_app ON kairos_job (app);
