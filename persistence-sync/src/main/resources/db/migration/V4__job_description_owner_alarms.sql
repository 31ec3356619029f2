-- Job features (issue #18 item 4): a description, an owner, and the job's own alarm recipients,
-- exactly as the Redis job hash holds them (the recipient lists newline-separated). NULL on rows
-- written before these existed, read back as "" and as no recipients.
ALTER TABLE kairos_job ADD COLUMN description TEXT;
ALTER TABLE kairos_job ADD COLUMN owner TEXT;
ALTER TABLE kairos_job ADD COLUMN alarm_emails TEXT;
ALTER TABLE kairos_job ADD COLUMN alarm_webhooks TEXT;
