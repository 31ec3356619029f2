package dev.kairos.core.model;

import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job as users define it, plus the two versions the store maintains.
 *
 * <p>The record holds what was submitted, even if it is invalid, so {@code JobValidator} can report
 * every problem at once; only nulls are rejected here. Enums are already typed (the API layer maps
 * unknown names to a 4xx); the zone stays a string because "unknown zone" is a validation problem.
 *
 * @param id 1–64 characters of {@code [A-Za-z0-9_.-]}, see {@link JobId}
 * @param app executor app that runs the job
 * @param handler handler name inside the app (one MQ topic per handler)
 * @param scheduleType how fire times are computed
 * @param scheduleSpec cron expression (CRON), interval in ms (FIXED_RATE, FIXED_DELAY), epoch ms
 *     (ONE_SHOT), empty (API)
 * @param zone IANA zone id the cron is evaluated in
 * @param cronDialect how a cron spec is read ({@link CronDialect#KAIROS} by default, {@link
 *     CronDialect#QUARTZ} as xxl-job and Quartz read it); ignored by the other schedule types
 * @param params opaque parameters handed to the handler (usually JSON), at most {@link
 *     #MAX_PARAMS_BYTES} UTF-8 bytes
 * @param timeoutMs handler timeout, 0 = none
 * @param retryCount retries after a failed attempt, 0..{@link #MAX_RETRY_COUNT}
 * @param misfireThresholdMs a fire older than this when found is a misfire; ≥ {@link
 *     #MIN_MISFIRE_THRESHOLD_MS} (the pre-read window) so the scanner's look-ahead never misfires
 * @param scheduleVersion bumped when the schedule changes, on disable and on delete; wheel entries
 *     carry it and are dropped at fire time when it no longer matches
 * @param version optimistic-concurrency version, bumped by every write
 * @param childJobIds jobs triggered (one ad-hoc trigger each) when a trigger of this job ends in
 *     SUCCESS; at most {@link #MAX_CHILD_JOBS}, no duplicates, not the job itself. Ids of jobs that
 *     do not exist (yet) are allowed; cycles through existing jobs are rejected by the store
 * @param description free text for people (at most {@link #MAX_DESCRIPTION_LENGTH} characters)
 * @param owner who answers for the job (at most {@link #MAX_OWNER_LENGTH} characters, one line)
 * @param alarmEmails addresses that get this job's alarms, on top of the configured recipients (at
 *     most {@link #MAX_ALARM_EMAILS})
 * @param alarmWebhooks http/https URLs that get this job's alarms as JSON, on top of the configured
 *     webhooks (at most {@link #MAX_ALARM_WEBHOOKS})
 * @param calendars names of calendars ({@code dev.kairos.core.calendar}) whose excluded times the
 *     job's scheduled fires skip (recorded SKIPPED); at most {@link #MAX_CALENDARS}, no duplicates
 * @param latenessObjective the start-lateness objective the cluster tracks and alarms on, if any
 */
public record JobDefinition(
    String id,
    String app,
    String handler,
    ScheduleType scheduleType,
    String scheduleSpec,
    String zone,
    CronDialect cronDialect,
    String params,
    RoutingStrategy routing,
    BlockStrategy block,
    long timeoutMs,
    int retryCount,
    RetryBackoff retryBackoff,
    MisfireStrategy misfireStrategy,
    long misfireThresholdMs,
    boolean enabled,
    long scheduleVersion,
    long version,
    long createdMs,
    long updatedMs,
    List<String> childJobIds,
    String description,
    String owner,
    List<String> alarmEmails,
    List<String> alarmWebhooks,
    List<String> calendars,
    Optional<LatenessObjective> latenessObjective) {

  /** Bound of {@link #calendars()}. */
  public static final int MAX_CALENDARS = 10;

  public static final int MAX_DESCRIPTION_LENGTH = 1000;
  public static final int MAX_OWNER_LENGTH = 200;
  public static final int MAX_ALARM_EMAILS = 20;
  public static final int MAX_ALARM_WEBHOOKS = 10;

  /** Bound of {@link #childJobIds()}: a fan-out wider than this belongs in a workflow engine. */
  public static final int MAX_CHILD_JOBS = 16;

  public static final int MAX_PARAMS_BYTES = 64 * 1024;
  public static final int MAX_RETRY_COUNT = 100;
  public static final long MIN_MISFIRE_THRESHOLD_MS = 5_000;
  public static final long DEFAULT_MISFIRE_THRESHOLD_MS = MIN_MISFIRE_THRESHOLD_MS;

  /**
   * The longest handler timeout, misfire threshold and retry delay: 7 days. Far beyond any sane
   * value, and small enough that the scripts' time arithmetic (fire time + dedup window + timeout,
   * in Lua's doubles and Redis' 64-bit expiries) can never overflow.
   */
  public static final long MAX_DURATION_MS = 7L * 24 * 60 * 60 * 1000;

  /**
   * Routing of a job that names none: CONSISTENT_HASH spreads an app's jobs over its live slots
   * (each job sticks to one slot while the slots do not change), so an added executor adds
   * capacity. xxl-job's default, FIRST, sends every fire to one executor; it stays available.
   */
  public static final RoutingStrategy DEFAULT_ROUTING = RoutingStrategy.CONSISTENT_HASH;

  public static final String DEFAULT_ZONE = "UTC";

  public JobDefinition {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(scheduleType, "scheduleType");
    Objects.requireNonNull(scheduleSpec, "scheduleSpec");
    Objects.requireNonNull(zone, "zone");
    Objects.requireNonNull(cronDialect, "cronDialect");
    Objects.requireNonNull(params, "params");
    Objects.requireNonNull(routing, "routing");
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    Objects.requireNonNull(misfireStrategy, "misfireStrategy");
    childJobIds = List.copyOf(Objects.requireNonNull(childJobIds, "childJobIds"));
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(owner, "owner");
    alarmEmails = List.copyOf(Objects.requireNonNull(alarmEmails, "alarmEmails"));
    alarmWebhooks = List.copyOf(Objects.requireNonNull(alarmWebhooks, "alarmWebhooks"));
    calendars = List.copyOf(Objects.requireNonNull(calendars, "calendars"));
    Objects.requireNonNull(latenessObjective, "latenessObjective");
  }

  /**
   * The parsed schedule. Fixed-rate jobs are anchored at {@link #createdMs()}: they fire at {@code
   * createdMs + k·interval}, so an update keeps the phase and every node computes the same times.
   *
   * @throws dev.kairos.core.schedule.InvalidScheduleException when the spec or zone is invalid
   */
  public Schedule schedule() {
    return Schedules.parse(scheduleType, scheduleSpec, zoneId(), cronDialect, createdMs);
  }

  /**
   * The zone as a {@link ZoneId}.
   *
   * @throws dev.kairos.core.schedule.InvalidScheduleException when the zone is unknown
   */
  public ZoneId zoneId() {
    return Schedules.zone(zone);
  }

  /** Whether the schedule (type, spec, zone or cron dialect) differs from {@code other}'s. */
  public boolean scheduleDiffers(JobDefinition other) {
    return scheduleType != other.scheduleType
        || !scheduleSpec.equals(other.scheduleSpec)
        || !zone.equals(other.zone)
        || cronDialect != other.cronDialect;
  }

  public static Builder builder(String id) {
    return new Builder(id);
  }

  public Builder toBuilder() {
    return new Builder(id)
        .app(app)
        .handler(handler)
        .schedule(scheduleType, scheduleSpec)
        .zone(zone)
        .cronDialect(cronDialect)
        .params(params)
        .routing(routing)
        .block(block)
        .timeoutMs(timeoutMs)
        .retryCount(retryCount)
        .retryBackoff(retryBackoff)
        .misfire(misfireStrategy, misfireThresholdMs)
        .enabled(enabled)
        .scheduleVersion(scheduleVersion)
        .version(version)
        .createdMs(createdMs)
        .updatedMs(updatedMs)
        .childJobIds(childJobIds)
        .description(description)
        .owner(owner)
        .alarmEmails(alarmEmails)
        .alarmWebhooks(alarmWebhooks)
        .calendars(calendars)
        .latenessObjective(latenessObjective);
  }

  /** Fills the defaults an operator expects: UTC, FIRST, SERIAL_EXECUTION, DO_NOTHING after 5 s. */
  public static final class Builder {
    private String id;
    private String app = "";
    private String handler = "";
    private ScheduleType scheduleType = ScheduleType.API;
    private String scheduleSpec = "";
    private String zone = DEFAULT_ZONE;
    private CronDialect cronDialect = CronDialect.DEFAULT;
    private String params = "";
    private RoutingStrategy routing = DEFAULT_ROUTING;
    private BlockStrategy block = BlockStrategy.SERIAL_EXECUTION;
    private long timeoutMs;
    private int retryCount;
    private RetryBackoff retryBackoff = RetryBackoff.DEFAULT;
    private MisfireStrategy misfireStrategy = MisfireStrategy.DO_NOTHING;
    private long misfireThresholdMs = DEFAULT_MISFIRE_THRESHOLD_MS;
    private boolean enabled = true;
    private long scheduleVersion;
    private long version;
    private long createdMs;
    private long updatedMs;
    private List<String> childJobIds = List.of();
    private String description = "";
    private String owner = "";
    private List<String> alarmEmails = List.of();
    private List<String> alarmWebhooks = List.of();
    private List<String> calendars = List.of();
    private Optional<LatenessObjective> latenessObjective = Optional.empty();

    private Builder(String id) {
      this.id = id;
    }

    /** Another id: the same definition under a new name (a copy). */
    public Builder id(String id) {
      this.id = id;
      return this;
    }

    public Builder app(String app) {
      this.app = app;
      return this;
    }

    public Builder handler(String handler) {
      this.handler = handler;
      return this;
    }

    public Builder schedule(ScheduleType type, String spec) {
      this.scheduleType = type;
      this.scheduleSpec = spec;
      return this;
    }

    public Builder cron(String expression) {
      return schedule(ScheduleType.CRON, expression);
    }

    public Builder fixedRate(long intervalMs) {
      return schedule(ScheduleType.FIXED_RATE, Long.toString(intervalMs));
    }

    public Builder fixedDelay(long intervalMs) {
      return schedule(ScheduleType.FIXED_DELAY, Long.toString(intervalMs));
    }

    public Builder oneShot(long atMs) {
      return schedule(ScheduleType.ONE_SHOT, Long.toString(atMs));
    }

    public Builder zone(String zone) {
      this.zone = zone;
      return this;
    }

    public Builder cronDialect(CronDialect cronDialect) {
      this.cronDialect = cronDialect;
      return this;
    }

    public Builder params(String params) {
      this.params = params;
      return this;
    }

    public Builder routing(RoutingStrategy routing) {
      this.routing = routing;
      return this;
    }

    public Builder block(BlockStrategy block) {
      this.block = block;
      return this;
    }

    public Builder timeoutMs(long timeoutMs) {
      this.timeoutMs = timeoutMs;
      return this;
    }

    public Builder retryCount(int retryCount) {
      this.retryCount = retryCount;
      return this;
    }

    public Builder retryBackoff(RetryBackoff retryBackoff) {
      this.retryBackoff = retryBackoff;
      return this;
    }

    public Builder misfire(MisfireStrategy strategy, long thresholdMs) {
      this.misfireStrategy = strategy;
      this.misfireThresholdMs = thresholdMs;
      return this;
    }

    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    public Builder scheduleVersion(long scheduleVersion) {
      this.scheduleVersion = scheduleVersion;
      return this;
    }

    public Builder version(long version) {
      this.version = version;
      return this;
    }

    public Builder createdMs(long createdMs) {
      this.createdMs = createdMs;
      return this;
    }

    public Builder updatedMs(long updatedMs) {
      this.updatedMs = updatedMs;
      return this;
    }

    public Builder childJobIds(List<String> childJobIds) {
      this.childJobIds = childJobIds;
      return this;
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    public Builder owner(String owner) {
      this.owner = owner;
      return this;
    }

    public Builder alarmEmails(List<String> alarmEmails) {
      this.alarmEmails = alarmEmails;
      return this;
    }

    public Builder alarmWebhooks(List<String> alarmWebhooks) {
      this.alarmWebhooks = alarmWebhooks;
      return this;
    }

    public Builder calendars(List<String> calendars) {
      this.calendars = calendars;
      return this;
    }

    public Builder latenessObjective(Optional<LatenessObjective> latenessObjective) {
      this.latenessObjective = latenessObjective;
      return this;
    }

    public Builder latenessObjective(LatenessObjective latenessObjective) {
      return latenessObjective(Optional.of(latenessObjective));
    }

    public JobDefinition build() {
      return new JobDefinition(
          id,
          app,
          handler,
          scheduleType,
          scheduleSpec,
          zone,
          cronDialect,
          params,
          routing,
          block,
          timeoutMs,
          retryCount,
          retryBackoff,
          misfireStrategy,
          misfireThresholdMs,
          enabled,
          scheduleVersion,
          version,
          createdMs,
          updatedMs,
          childJobIds,
          description,
          owner,
          alarmEmails,
          alarmWebhooks,
          calendars,
          latenessObjective);
    }
  }
}
