-- Child jobs (issue #8): the ids of the jobs triggered when a trigger of this job ends in
-- SUCCESS, comma-separated exactly as the Redis job hash holds them ('' for none). NULL on rows
-- written before child jobs existed, read back as none.
ALTER TABLE kairos_job ADD COLUMN child_job_ids TEXT;
