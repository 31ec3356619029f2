package dev.kairos.node.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.core.calendar.CalendarSplit;
import dev.kairos.core.calendar.ExclusionCalendar;
import dev.kairos.core.calendar.SkippedFire;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.CronSchedule;
import dev.kairos.core.schedule.FixedDelaySchedule;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The next fire times of a schedule, as the store would arm it at {@code fromMs} and the scanner
 * would continue it. FIXED_DELAY depends on when each run ends; the preview assumes runs that take
 * no time, and says so. A fire one of the job's calendars excludes is listed with {@code skippedBy}
 * naming the calendar: the scan records it SKIPPED instead of running it.
 */
public final class FirePreview {

  /**
   * One fire time, as epoch ms and as local time in the schedule's zone.
   *
   * @param skippedBy the calendar that excludes this fire (it is recorded SKIPPED, not run); absent
   *     when it runs
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Fire(long epochMs, String time, String skippedBy) {

    public Fire(long epochMs, String time) {
      this(epochMs, time, null);
    }
  }

  /**
   * @param cronDialect how the cron was read; null for the other schedule types
   * @param note present when the times are an approximation or there are none
   */
  public record Result(
      long fromMs, String zone, CronDialect cronDialect, List<Fire> fires, String note) {}

  private FirePreview() {}

  public static Result of(Schedule schedule, ZoneId zone, long fromMs, int count) {
    return of(schedule, zone, fromMs, count, List.of(), Map.of());
  }

  /**
   * @param names the job's calendars, in its order
   * @param calendars those of them that exist
   */
  public static Result of(
      Schedule schedule,
      ZoneId zone,
      long fromMs,
      int count,
      List<String> names,
      Map<String, ExclusionCalendar> calendars) {
    Result plain = plain(schedule, zone, fromMs, count);
    if (names.isEmpty() || plain.fires().isEmpty()) {
      return plain;
    }
    CalendarSplit split =
        CalendarSplit.of(
            plain.fires().stream().map(Fire::epochMs).toList(), names, calendars, zone);
    Map<Long, String> skipped = new HashMap<>();
    for (SkippedFire s : split.skipped()) {
      skipped.put(s.fireMs(), s.calendar());
    }
    List<Fire> fires =
        plain.fires().stream()
            .map(f -> new Fire(f.epochMs(), f.time(), skipped.get(f.epochMs())))
            .toList();
    String note = plain.note();
    if (!split.unknown().isEmpty()) {
      String missing = "calendars " + split.unknown() + " do not exist and exclude nothing";
      note = note == null ? missing : note + "; " + missing;
    }
    return new Result(plain.fromMs(), plain.zone(), plain.cronDialect(), fires, note);
  }

  private static Result plain(Schedule schedule, ZoneId zone, long fromMs, int count) {
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
