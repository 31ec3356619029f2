package dev.kairos.migrate.xxljob.source;

/**
 * One row of xxl-job's {@code xxl_job_group}: an executor group, whose {@code app_name} becomes the
 * Kairos job's {@code app}.
 */
public record XxlJobGroup(int id, String appName, String title) {}
