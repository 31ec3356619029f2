-- Calendars (issue #36 item 2): the names of the calendars whose excluded times a job's fires
-- skip, comma-separated as the Redis job hash holds them. NULL on rows written before, read back
-- as none. A skipped fire is a kairos_trigger row in state SKIPPED (state is TEXT: no change).
ALTER TABLE kairos_job ADD COLUMN calendars TEXT;
