package dev.kairos.audit;

/** What a write through the admin API did; one audit entry each. */
public enum AuditAction {
  JOB_CREATED,
  /** Created as a copy of another job ({@code detail} names it), disabled. */
  JOB_COPIED,
  JOB_UPDATED,
  JOB_ENABLED,
  JOB_DISABLED,
  JOB_DELETED,
  /** Created or updated by an import: one entry per job written. */
  JOB_IMPORTED,
  /** "Trigger now": the new trigger's id is in the entry. */
  JOB_TRIGGERED,
  /** A trigger cancelled before it started. */
  TRIGGER_CANCELLED,
  /** A running trigger whose executor was asked to interrupt it. */
  TRIGGER_CANCEL_REQUESTED,
  /** A backfill of a job's past range started (its id and range are in {@code detail}). */
  BACKFILL_STARTED,
  /** A running backfill cancelled (its id is in {@code detail}). */
  BACKFILL_CANCELLED,
  APP_SETTINGS_WRITTEN,
  /** A calendar created or replaced (its name and version are in {@code detail}). */
  CALENDAR_WRITTEN,
  CALENDAR_DELETED,
  CLUSTER_PAUSED,
  CLUSTER_RESUMED,
  /** A rebuild of Redis shards from PostgreSQL ran. */
  REBUILD_RUN,
  /** A node was asked to drain (its name is in {@code detail}). */
  NODE_DRAIN_STARTED,
  TOKEN_CREATED,
  TOKEN_REVOKED,
  USER_CREATED,
  USER_PASSWORD_CHANGED,
  USER_DELETED,
  WORKFLOW_CREATED,
  WORKFLOW_UPDATED,
  WORKFLOW_DELETED,
  /** Created or updated by a workflow import: one entry per workflow written. */
  WORKFLOW_IMPORTED,
  /** A workflow run started through the API: the run id is in {@code detail}. */
  WORKFLOW_RUN_STARTED,
  WORKFLOW_RUN_CANCELLED;

  /** The action named {@code name}, or null for a name this version does not know. */
  public static AuditAction parse(String name) {
    for (AuditAction a : values()) {
      if (a.name().equals(name)) {
        return a;
      }
    }
    return null;
  }
}
