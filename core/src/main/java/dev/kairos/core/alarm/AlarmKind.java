package dev.kairos.core.alarm;

/** What an alarm is about; together with the subject it is the de-duplication key. */
public enum AlarmKind {
  /** A trigger ended in a failure state and the job has no retry left. Subject: the job id. */
  TRIGGER_FAILED,
  /** The cluster has had no leader for longer than the configured bound. Subject: the cluster. */
  NO_LEADER,
  /** Persistence-sync lag passed its threshold. Subject: the shard, or the cluster. */
  SYNC_LAG,
  /** An executor app has enabled jobs but no live slot. Subject: the app name. */
  APP_WITHOUT_EXECUTOR,
  /**
   * A job's start-lateness objective is breached over its window (raised when it turns breached).
   * Subject: the job id.
   */
  LATENESS_OBJECTIVE
}
