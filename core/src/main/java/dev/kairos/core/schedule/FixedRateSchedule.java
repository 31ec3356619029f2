package dev.kairos.core.schedule;

import dev.kairos.core.model.ScheduleType;
import java.util.OptionalLong;

/**
 * Fires at {@code anchorMs + k·intervalMs} for every integer k ≥ 0, however long runs take. The
 * anchor keeps the phase stable across scans, leaders and restarts.
 */
public record FixedRateSchedule(long intervalMs, long anchorMs) implements Schedule {

  public FixedRateSchedule {
    if (intervalMs <= 0) {
      throw new InvalidScheduleException(
          "fixed-rate interval must be > 0 ms but was " + intervalMs);
    }
  }

  @Override
  public OptionalLong nextFireAfter(long epochMs) {
    if (epochMs < anchorMs) {
      return OptionalLong.of(anchorMs);
    }
    try {
      long periods = Math.subtractExact(epochMs, anchorMs) / intervalMs + 1;
      return OptionalLong.of(Math.addExact(anchorMs, Math.multiplyExact(periods, intervalMs)));
    } catch (ArithmeticException e) {
      return OptionalLong.empty(); // beyond the end of time
    }
  }

  @Override
  public ScheduleType type() {
    return ScheduleType.FIXED_RATE;
  }
}
