package dev.kairos.core.redis;

/** Field names of the job HASH ({@link RedisKeys#job}); scripts use the same literal names. */
public final class JobFields {
  public static final String ID = "id";
  public static final String APP = "app";
  public static final String HANDLER = "handler";
  public static final String SCHEDULE_TYPE = "scheduleType";

  /** Cron expression, interval in ms, or the one-shot instant in epoch ms, per schedule type. */
  public static final String SCHEDULE = "schedule";

  public static final String ZONE = "zone";

  /** {@code CronDialect} name; absent in hashes written before dialects, read as KAIROS. */
  public static final String CRON_DIALECT = "cronDialect";

  public static final String PARAMS = "params";
  public static final String ROUTING = "routing";
  public static final String BLOCK = "block";
  public static final String TIMEOUT_MS = "timeoutMs";
  public static final String RETRY_COUNT = "retryCount";
  public static final String RETRY_BACKOFF = "retryBackoff";
  public static final String MISFIRE = "misfire";
  public static final String MISFIRE_THRESHOLD_MS = "misfireThresholdMs";
  public static final String ENABLED = "enabled";

  /** Comma-separated ids of the jobs triggered when a trigger of this job ends in SUCCESS. */
  public static final String CHILD_JOB_IDS = "childJobIds";

  /** Free text for people; absent in hashes written before it existed, read as "". */
  public static final String DESCRIPTION = "description";

  /** Who answers for the job; absent in older hashes, read as "". */
  public static final String OWNER = "owner";

  /** Newline-separated addresses that get this job's alarms; absent or "" for none. */
  public static final String ALARM_EMAILS = "alarmEmails";

  /** Newline-separated http/https URLs that get this job's alarms; absent or "" for none. */
  public static final String ALARM_WEBHOOKS = "alarmWebhooks";

  /**
   * Comma-separated names of the calendars whose excluded times this job's fires skip; absent in
   * older hashes, read as none.
   */
  public static final String CALENDARS = "calendars";

  /**
   * The start-lateness objective, {@code percentile:thresholdMs:windowMs} ({@code
   * LatenessObjective}); absent or "" for none.
   */
  public static final String LATENESS_OBJECTIVE = "latenessObjective";

  /** Schedule version: bumped when the schedule changes, on disable and on delete. */
  public static final String SCHEDULE_VERSION = "scheduleVersion";

  /** Optimistic-concurrency version of the whole definition: bumped on every write. */
  public static final String VERSION = "version";

  public static final String NEXT_FIRE_MS = "nextFireMs";
  public static final String LAST_FIRE_MS = "lastFireMs";
  public static final String CREATED_MS = "createdMs";
  public static final String UPDATED_MS = "updatedMs";

  private JobFields() {}
}
