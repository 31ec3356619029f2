package dev.kairos.node.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.secret.SecretParamsCipher;
import java.util.List;

/**
 * A stored job as the API shows it: the definition, the store's versions and timestamps, and its
 * next fire from the due ZSET.
 *
 * @param nextFireMs next scheduled fire (epoch ms); null when it has none (disabled, API-only, a
 *     past one-shot) or is parked (a FIXED_DELAY job waiting for its running trigger to end)
 * @param warnings on writes only: what was accepted but will not work yet (no live executor)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobView(
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
    long timeoutMs,
    int retryCount,
    JobRequest.RetryBackoffBody retryBackoff,
    MisfireStrategy misfire,
    long misfireThresholdMs,
    boolean enabled,
    List<String> childJobIds,
    String description,
    String owner,
    List<String> alarmEmails,
    List<String> alarmWebhooks,
    List<String> calendars,
    JobRequest.LatenessObjectiveBody latenessObjective,
    long version,
    long scheduleVersion,
    long createdMs,
    long updatedMs,
    Long nextFireMs,
    List<Warning> warnings) {

  public static JobView of(
      JobDefinition job, Long nextFireMs, List<Warning> warnings, SecretParamsCipher secrets) {
    return new JobView(
        job.id(),
        job.app(),
        job.handler(),
        job.scheduleType(),
        job.scheduleSpec(),
        job.zone(),
        job.cronDialect(),
        // A reader who may not write jobs sees their secrets masked (ParamsRedaction).
        ParamsRedaction.forCaller(job, secrets),
        job.routing(),
        job.block(),
        job.timeoutMs(),
        job.retryCount(),
        JobRequest.RetryBackoffBody.of(job.retryBackoff()),
        job.misfireStrategy(),
        job.misfireThresholdMs(),
        job.enabled(),
        job.childJobIds(),
        job.description(),
        job.owner(),
        job.alarmEmails(),
        job.alarmWebhooks(),
        job.calendars(),
        job.latenessObjective().map(JobRequest.LatenessObjectiveBody::of).orElse(null),
        job.version(),
        job.scheduleVersion(),
        job.createdMs(),
        job.updatedMs(),
        nextFireMs,
        warnings);
  }
}
