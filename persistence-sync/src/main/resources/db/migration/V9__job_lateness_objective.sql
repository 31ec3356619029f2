-- Lateness objectives (issue #36 item 4): the job's start-lateness objective exactly as the Redis
-- job hash holds it (percentile:thresholdMs:windowMs), NULL or '' for none. The objective watch
-- reads the jobs that have one; the partial index keeps that read small in a fleet of a million.
ALTER TABLE kairos_job ADD COLUMN lateness_objective TEXT;
CREATE INDEX kairos_job_lateness_objective ON kairos_job (job_id)
    WHERE lateness_objective IS NOT NULL AND lateness_objective <> '' AND NOT deleted;
