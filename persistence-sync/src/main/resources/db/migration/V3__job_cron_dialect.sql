-- Cron dialects (issue #18): how the job's cron is read, KAIROS or QUARTZ, exactly as the Redis
-- job hash holds it. NULL on rows written before dialects existed, read back as KAIROS.
ALTER TABLE kairos_job ADD COLUMN cron_dialect TEXT;
