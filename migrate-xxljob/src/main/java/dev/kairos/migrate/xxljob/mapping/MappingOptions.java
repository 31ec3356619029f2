package dev.kairos.migrate.xxljob.mapping;

import dev.kairos.core.model.JobDefinition;

/**
 * @param idPrefix Kairos job id = prefix + xxl-job id; the default {@code xxl-} keeps {@code
 *     XxlJobHelper.getJobId()} answering the old number through the compatibility module
 * @param zone IANA zone the crons are evaluated in: the zone of the xxl-job admin server's JVM
 * @param nowMs the instant the jobs are checked at (a cron must fire after it)
 */
public record MappingOptions(String idPrefix, String zone, long nowMs) {

  public static final String DEFAULT_ID_PREFIX = "xxl-";
  public static final String DEFAULT_ZONE = JobDefinition.DEFAULT_ZONE;

  public MappingOptions {
    idPrefix = idPrefix == null ? DEFAULT_ID_PREFIX : idPrefix;
    zone = zone == null || zone.isBlank() ? DEFAULT_ZONE : zone;
  }
}
