package dev.kairos.core.schedule;

import dev.kairos.core.model.ScheduleType;
import java.util.OptionalLong;

/** Never fires on its own; the job runs only when triggered through the API. */
public record ApiSchedule() implements Schedule {

  public static final ApiSchedule INSTANCE = new ApiSchedule();

  @Override
  public OptionalLong nextFireAfter(long epochMs) {
    return OptionalLong.empty();
  }

  @Override
  public ScheduleType type() {
    return ScheduleType.API;
  }
}
