package dev.kairos.migrate.xxljob.kairos;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.ScheduleType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job as the node's job API reads it ({@code JobRequest}: the fields of {@code POST /api/v1/jobs}
 * and of an import document's {@code jobs[]}). Only the fields the importer sets are sent; the node
 * fills the rest with its defaults (retry backoff).
 */
public final class JobBody {

  private JobBody() {}

  public static Map<String, Object> of(JobDefinition job, Map<String, Object> extras) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", job.id());
    body.put("app", job.app());
    body.put("handler", job.handler());
    body.put("scheduleType", job.scheduleType().name());
    body.put("schedule", job.scheduleSpec());
    body.put("zone", job.zone());
    if (job.scheduleType() == ScheduleType.CRON) {
      body.put("cronDialect", job.cronDialect().name());
    }
    body.put("params", job.params());
    body.put("routing", job.routing().name());
    body.put("block", job.block().name());
    body.put("timeoutMs", job.timeoutMs());
    body.put("retryCount", job.retryCount());
    body.put("misfire", job.misfireStrategy().name());
    body.put("misfireThresholdMs", job.misfireThresholdMs());
    body.put("enabled", job.enabled());
    body.put("childJobIds", job.childJobIds());
    body.putAll(extras);
    return body;
  }
}
