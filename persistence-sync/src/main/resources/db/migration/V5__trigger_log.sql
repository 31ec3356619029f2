-- Handler log lines of triggers (TRIGGER_LOG events of the shard streams), so
-- GET /api/v1/triggers/{id}/log serves a run's log once its Redis copy expired. One row per line;
-- (trigger_id, seq) makes a replayed event a no-op. No foreign key to kairos_trigger: a log event
-- may be applied before the trigger's own row. Retention deletes by fire_ms, like kairos_trigger.
CREATE TABLE kairos_trigger_log (
    trigger_id  TEXT    NOT NULL,
    seq         BIGINT  NOT NULL,
    fire_ms     BIGINT  NOT NULL,
    ts_ms       BIGINT  NOT NULL,
    level       TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    PRIMARY KEY (trigger_id, seq)
);
CREATE INDEX kairos_trigger_log_fire ON kairos_trigger_log (fire_ms);
