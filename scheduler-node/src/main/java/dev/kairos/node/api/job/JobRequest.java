package dev.kairos.node.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.LatenessObjective;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.RetryBackoff;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.node.api.web.StrictJson;
import java.util.List;

/**
 * A job as a client submits it (create, full update, import). Field names are those of the job hash
 * ({@code JobFields}), so a validation problem names the field the client sent. Absent fields take
 * the defaults of {@link JobDefinition.Builder}; absent strings are empty and then reported by the
 * validator where they are required.
 *
 * @param cronDialect how the cron is read: KAIROS (default) or QUARTZ (xxl-job's crons)
 * @param childJobIds jobs triggered when a trigger of this job succeeds (at most 16)
 * @param description free text (at most 1000 characters)
 * @param owner who answers for the job (at most 200 characters)
 * @param alarmEmails addresses that get this job's alarms besides the configured ones (at most 20)
 * @param alarmWebhooks http/https URLs that get this job's alarms besides the configured ones (at
 *     most 10)
 * @param calendars names of calendars whose excluded times this job's fires skip (at most 10, each
 *     must exist)
 * @param latenessObjective the start-lateness objective the cluster tracks (absent: none)
 * @param version only for a full update without {@code If-Match}: the version it applies to
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobRequest(
    String id,
    String app,
    String handler,
    ScheduleType scheduleType,
    String schedule,
    String zone,
    CronDialect cronDialect,
    String params,
    RoutingStrategy routing,
    BlockStrategy block,
    Long timeoutMs,
    Integer retryCount,
    RetryBackoffBody retryBackoff,
    MisfireStrategy misfire,
    Long misfireThresholdMs,
    Boolean enabled,
    List<String> childJobIds,
    String description,
    String owner,
    List<String> alarmEmails,
    List<String> alarmWebhooks,
    List<String> calendars,
    LatenessObjectiveBody latenessObjective,
    Long version)
    implements StrictJson {

  /**
   * The start-lateness objective as JSON: {@code thresholdMs} is required; {@code percentile}
   * defaults to 99 and {@code windowMs} to one hour.
   */
  public record LatenessObjectiveBody(Double percentile, Long thresholdMs, Long windowMs) {

    static final double DEFAULT_PERCENTILE = 99.0;
    static final long DEFAULT_WINDOW_MS = 3_600_000;

    LatenessObjective toObjective() {
      return new LatenessObjective(
          percentile != null ? percentile : DEFAULT_PERCENTILE,
          thresholdMs != null ? thresholdMs : 0, // 0 is reported as "thresholdMs must be in 1.."
          windowMs != null ? windowMs : DEFAULT_WINDOW_MS);
    }

    static LatenessObjectiveBody of(LatenessObjective o) {
      return new LatenessObjectiveBody(o.percentile(), o.thresholdMs(), o.windowMs());
    }
  }

  /** The retry backoff as JSON; absent parts take the defaults of {@link RetryBackoff#DEFAULT}. */
  public record RetryBackoffBody(
      RetryBackoff.Kind kind, Long initialDelayMs, Long maxDelayMs, Double jitter) {

    RetryBackoff toBackoff() {
      RetryBackoff d = RetryBackoff.DEFAULT;
      long initial = initialDelayMs != null ? initialDelayMs : d.initialDelayMs();
      return new RetryBackoff(
          kind != null ? kind : d.kind(),
          initial,
          maxDelayMs != null ? maxDelayMs : Math.max(initial, d.maxDelayMs()),
          jitter != null ? jitter : d.jitter());
    }

    static RetryBackoffBody of(RetryBackoff b) {
      return new RetryBackoffBody(b.kind(), b.initialDelayMs(), b.maxDelayMs(), b.jitter());
    }
  }

  /** The definition with the given id (the path's, or the body's on create and import). */
  public JobDefinition toDefinition(String jobId) {
    JobDefinition.Builder b = JobDefinition.builder(jobId == null ? "" : jobId);
    b.app(orEmpty(app)).handler(orEmpty(handler));
    // Stored as the parser reads it: " 60000 " is the interval 60000, not a spec with spaces.
    b.schedule(scheduleType != null ? scheduleType : ScheduleType.API, orEmpty(schedule).strip());
    if (zone != null) {
      b.zone(zone);
    }
    if (cronDialect != null) {
      b.cronDialect(cronDialect);
    }
    b.params(orEmpty(params));
    if (routing != null) {
      b.routing(routing);
    }
    if (block != null) {
      b.block(block);
    }
    if (timeoutMs != null) {
      b.timeoutMs(timeoutMs);
    }
    if (retryCount != null) {
      b.retryCount(retryCount);
    }
    if (retryBackoff != null) {
      b.retryBackoff(retryBackoff.toBackoff());
    }
    b.misfire(
        misfire != null ? misfire : MisfireStrategy.DO_NOTHING,
        misfireThresholdMs != null
            ? misfireThresholdMs
            : JobDefinition.DEFAULT_MISFIRE_THRESHOLD_MS);
    b.enabled(enabled == null || enabled);
    if (childJobIds != null) {
      // A null element becomes "", which the validator reports as an invalid child id.
      b.childJobIds(childJobIds.stream().map(JobRequest::orEmpty).toList());
    }
    b.description(orEmpty(description)).owner(orEmpty(owner));
    if (alarmEmails != null) {
      // Surrounding spaces are a paste artefact, not part of an address; null is reported as "".
      b.alarmEmails(alarmEmails.stream().map(e -> orEmpty(e).strip()).toList());
    }
    if (alarmWebhooks != null) {
      b.alarmWebhooks(alarmWebhooks.stream().map(u -> orEmpty(u).strip()).toList());
    }
    if (calendars != null) {
      b.calendars(calendars.stream().map(c -> orEmpty(c).strip()).toList());
    }
    if (latenessObjective != null) {
      b.latenessObjective(latenessObjective.toObjective());
    }
    return b.build();
  }

  /** The user-defined part of a stored job, as an export writes it. */
  public static JobRequest of(JobDefinition job) {
    return new JobRequest(
        job.id(),
        job.app(),
        job.handler(),
        job.scheduleType(),
        job.scheduleSpec(),
        job.zone(),
        job.cronDialect(),
        job.params(),
        job.routing(),
        job.block(),
        job.timeoutMs(),
        job.retryCount(),
        RetryBackoffBody.of(job.retryBackoff()),
        job.misfireStrategy(),
        job.misfireThresholdMs(),
        job.enabled(),
        job.childJobIds(),
        job.description(),
        job.owner(),
        job.alarmEmails(),
        job.alarmWebhooks(),
        job.calendars(),
        job.latenessObjective().map(LatenessObjectiveBody::of).orElse(null),
        null);
  }

  private static String orEmpty(String text) {
    return text == null ? "" : text;
  }
}
