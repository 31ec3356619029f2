package dev.kairos.node.api.job;

import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.CronSchedule;
import dev.kairos.core.schedule.FixedDelaySchedule;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The next fire times of a schedule, as the store would arm it at {@code fromMs} and the scanner
 * would continue it. FIXED_DELAY depends on when each run ends; the preview assumes runs that take
 * no time, and says so.
 */
public final class FirePreview {

  /** One fire time, as epoch ms and as local time in the schedule's zone. */
  public record Fire(long epochMs, String time) {}

  /**
   * @param cronDialect how the cron was read; null for the other schedule types
   * @param note present when the times are an approximation or there are none
   */
  public record Result(
      long fromMs, String zone, CronDialect cronDialect, List<Fire> fires, String note) {}

  private FirePreview() {}

  public static Result of(Schedule schedule, ZoneId zone, long fromMs, int count) {
    List<Fire> fires = new ArrayList<>(count);
    OptionalLong next = Schedules.firstFire(schedule, fromMs);
    while (next.isPresent() && fires.size() < count) {
      long at = next.getAsLong();
      fires.add(new Fire(at, Instant.ofEpochMilli(at).atZone(zone).toOffsetDateTime().toString()));
      next =
          schedule instanceof FixedDelaySchedule delay
              ? OptionalLong.of(delay.nextFireAfterEnd(at))
              : schedule.nextFireAfter(at);
    }
    String note = null;
    if (schedule instanceof FixedDelaySchedule) {
      note = "FIXED_DELAY fires one interval after the previous run ends; runs assumed instant";
    } else if (fires.isEmpty()) {
      note = "the schedule has no fire after " + Instant.ofEpochMilli(fromMs);
    }
    CronDialect dialect = schedule instanceof CronSchedule cron ? cron.dialect() : null;
    return new Result(fromMs, zone.getId(), dialect, fires, note);
  }
}
