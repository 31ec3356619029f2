-- The audit trail of writes through the admin API (issue #34): one row per change, copied from the
-- capped Redis stream kairos:{audit}:log by the audit module's consumer group. The stream entry id
-- (<ms>-<seq>, split in two numbers so it sorts) is the primary key, so a replayed entry is a no-op
-- (INSERT ... ON CONFLICT DO NOTHING) and pages walk it newest first. at_ms is the cluster time of
-- the change; retention deletes by it. Job definitions are the API's JSON of the job (params
-- whole, as an ADMIN reads them); the diff is computed when reading.
CREATE TABLE kairos_audit (
    stream_ms      BIGINT  NOT NULL,
    stream_seq     BIGINT  NOT NULL,
    at_ms          BIGINT  NOT NULL,
    actor          TEXT    NOT NULL,
    actor_source   TEXT    NOT NULL,
    action         TEXT    NOT NULL,
    app            TEXT,
    job_id         TEXT,
    trigger_id     TEXT,
    version_before BIGINT,
    version_after  BIGINT,
    job_before     TEXT,
    job_after      TEXT,
    script_sha256  TEXT,
    detail         TEXT,
    PRIMARY KEY (stream_ms, stream_seq)
);

-- The filters of GET /api/v1/audit, each newest first.
CREATE INDEX kairos_audit_job ON kairos_audit (job_id, stream_ms DESC, stream_seq DESC);
CREATE INDEX kairos_audit_app ON kairos_audit (app, stream_ms DESC, stream_seq DESC);
CREATE INDEX kairos_audit_actor ON kairos_audit (actor, stream_ms DESC, stream_seq DESC);

-- Retention deletes by the change's time.
CREATE INDEX kairos_audit_at ON kairos_audit (at_ms);
