package dev.kairos.migrate.xxljob.source;

/**
 * One row of xxl-job's {@code xxl_job_info}, as read: every column the importer looks at, with the
 * text xxl-job stored (no enum is parsed here, so an unknown value reaches the report as it is).
 * Nullable columns are {@code null} when the row holds NULL.
 *
 * @param scheduleType {@code schedule_type} (2.3 and later); {@code CRON} for older schemas that
 *     only have {@code job_cron}
 * @param scheduleConf {@code schedule_conf}, or {@code job_cron} on older schemas
 * @param executorTimeout seconds, 0 = none
 * @param childJobIds {@code child_jobid}: xxl job ids separated by commas
 * @param triggerStatus 1 = running, 0 = stopped
 */
public record XxlJobInfo(
    int id,
    int jobGroup,
    String jobDesc,
    String author,
    String alarmEmail,
    String scheduleType,
    String scheduleConf,
    String misfireStrategy,
    String executorRouteStrategy,
    String executorHandler,
    String executorParam,
    String executorBlockStrategy,
    int executorTimeout,
    int executorFailRetryCount,
    String glueType,
    String glueSource,
    String childJobIds,
    int triggerStatus) {}
