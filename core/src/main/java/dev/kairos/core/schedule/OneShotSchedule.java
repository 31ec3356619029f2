package dev.kairos.core.schedule;

import dev.kairos.core.model.ScheduleType;
import java.util.OptionalLong;

/** Exactly one fire, at {@link #atMs()} (epoch ms). */
public record OneShotSchedule(long atMs) implements Schedule {

  @Override
  public OptionalLong nextFireAfter(long epochMs) {
    return atMs > epochMs ? OptionalLong.of(atMs) : OptionalLong.empty();
  }

  @Override
  public ScheduleType type() {
    return ScheduleType.ONE_SHOT;
  }
}
