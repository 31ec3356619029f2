package dev.kairos.core.schedule;

import dev.kairos.core.model.ScheduleType;
import java.util.OptionalLong;

/**
 * When a job fires. Implementations are immutable and thread-safe; every node computes the same
 * fire times from the same definition, which is what lets any leader continue any job.
 */
public sealed interface Schedule
    permits CronSchedule, FixedRateSchedule, FixedDelaySchedule, OneShotSchedule, ApiSchedule {

  /**
   * The smallest fire time strictly greater than {@code epochMs}, or empty when the schedule has no
   * further fire (a one-shot in the past, an impossible cron, an API-only job, and FIXED_DELAY,
   * whose next fire depends on when the previous run ends and is armed by the trigger lifecycle).
   */
  OptionalLong nextFireAfter(long epochMs);

  ScheduleType type();
}
