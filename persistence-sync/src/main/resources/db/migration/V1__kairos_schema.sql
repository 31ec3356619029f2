-- Kairos persistence-sync schema: the write-behind copy of Redis (the source of truth).
-- Times are epoch milliseconds (BIGINT) exactly as Redis holds them, so a row compares field by
-- field with its Redis hash and no time zone conversion can creep in.

-- One row per job id. A deleted job stays as a tombstone (deleted = TRUE) carrying the version the
-- deletion had, so a replayed older JOB_UPSERTED can never resurrect it; a job re-created later
-- under the same id is recognised by created_ms >= deleted_ms.
CREATE TABLE kairos_job (
    job_id               TEXT    PRIMARY KEY,
    shard                INTEGER NOT NULL,
    app                  TEXT,
    handler              TEXT,
    schedule_type        TEXT,
    schedule             TEXT,
    zone                 TEXT,
    params               TEXT,
    routing              TEXT,
    block                TEXT,
    timeout_ms           BIGINT,
    retry_count          INTEGER,
    retry_backoff        TEXT,
    misfire              TEXT,
    misfire_threshold_ms BIGINT,
    enabled              BOOLEAN,
    schedule_version     BIGINT  NOT NULL,
    version              BIGINT  NOT NULL,
    next_fire_ms         BIGINT,
    last_fire_ms         BIGINT,
    created_ms           BIGINT,
    updated_ms           BIGINT,
    deleted              BOOLEAN NOT NULL DEFAULT FALSE,
    deleted_ms           BIGINT,
    synced_at            TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Rebuild loads a shard's live jobs.
CREATE INDEX kairos_job_shard ON kairos_job (shard) WHERE NOT deleted;

-- One row per trigger id. state only moves to a higher state_rank (TriggerState.rank()).
-- node/term (claim, then moves) and slot (routed slot, then the executor's) change over a
-- trigger's life: each keeps the stream position of the entry it came from (*_pos_*), and only a
-- newer entry replaces it. Every other field is written once by the scripts, so it is merged with
-- COALESCE: no replayed or reordered event erases or rewrites what an earlier one wrote.
CREATE TABLE kairos_trigger (
    trigger_id       TEXT     PRIMARY KEY,
    job_id           TEXT     NOT NULL,
    shard            INTEGER  NOT NULL,
    fire_ms          BIGINT,
    state            TEXT,
    state_rank       SMALLINT NOT NULL,
    attempt          INTEGER,
    schedule_version BIGINT,
    node             TEXT,
    term             BIGINT,
    executor         TEXT,
    slot             TEXT,
    message          TEXT,
    claimed_ms       BIGINT,
    dispatched_ms    BIGINT,
    started_ms       BIGINT,
    ended_ms         BIGINT,
    late_ended_ms    BIGINT,
    late_message     TEXT,
    node_pos_ms      BIGINT,
    node_pos_seq     BIGINT,
    slot_pos_ms      BIGINT,
    slot_pos_seq     BIGINT,
    last_stream_ms   BIGINT   NOT NULL,
    last_stream_seq  BIGINT   NOT NULL,
    synced_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A job's recent triggers, newest first (paged).
CREATE INDEX kairos_trigger_job_fire ON kairos_trigger (job_id, fire_ms DESC);
-- Failures in a time range, across jobs; small because most triggers succeed.
CREATE INDEX kairos_trigger_failures ON kairos_trigger (fire_ms)
    WHERE state IN ('FAIL', 'TIMEOUT', 'LOST', 'EXPIRED', 'NO_EXECUTOR');
-- Retention deletes the oldest rows in batches; daily reports aggregate one day.
CREATE INDEX kairos_trigger_fire ON kairos_trigger (fire_ms);

-- Trigger counts per UTC day (by scheduled fire time), per job and overall (job_id = '*').
-- Recomputed from kairos_trigger, so a refresh is idempotent.
CREATE TABLE kairos_daily_report (
    day           DATE    NOT NULL,
    job_id        TEXT    NOT NULL,
    success_count BIGINT  NOT NULL,
    failure_count BIGINT  NOT NULL,
    running_count BIGINT  NOT NULL,
    other_count   BIGINT  NOT NULL,
    refreshed_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (day, job_id)
);
