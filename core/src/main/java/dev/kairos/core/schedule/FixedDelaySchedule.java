package dev.kairos.core.schedule;

import dev.kairos.core.model.ScheduleType;
import java.util.OptionalLong;

/**
 * The next fire is the previous trigger's end plus {@link #intervalMs()}. That end is unknown at
 * scan time, so {@link #nextFireAfter} is always empty: after its fire is claimed the job is parked
 * and the trigger lifecycle re-arms it (first fire: creation + interval).
 */
public record FixedDelaySchedule(long intervalMs) implements Schedule {

  public FixedDelaySchedule {
    if (intervalMs <= 0) {
      throw new InvalidScheduleException(
          "fixed-delay interval must be > 0 ms but was " + intervalMs);
    }
  }

  @Override
  public OptionalLong nextFireAfter(long epochMs) {
    return OptionalLong.empty();
  }

  /** When a run that ended (or was dropped) at {@code endMs} fires again. */
  public long nextFireAfterEnd(long endMs) {
    return endMs + intervalMs;
  }

  @Override
  public ScheduleType type() {
    return ScheduleType.FIXED_DELAY;
  }
}
