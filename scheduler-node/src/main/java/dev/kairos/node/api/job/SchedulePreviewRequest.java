package dev.kairos.node.api.job;

import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.node.api.web.StrictJson;
import java.util.List;

/**
 * A schedule to preview before it is saved.
 *
 * @param zone IANA zone of a cron; default UTC
 * @param cronDialect how a cron is read; default KAIROS
 * @param count how many fire times; default 10, at most {@code kairos.api.max-preview-count}
 * @param fromMs the instant the schedule is set (a fixed rate's anchor); default now
 * @param calendars names of calendars whose excluded fires the preview marks (each must exist)
 */
public record SchedulePreviewRequest(
    ScheduleType scheduleType,
    String schedule,
    String zone,
    CronDialect cronDialect,
    Integer count,
    Long fromMs,
    List<String> calendars)
    implements StrictJson {}
