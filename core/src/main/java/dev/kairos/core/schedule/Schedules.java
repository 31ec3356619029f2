package dev.kairos.core.schedule;

import dev.kairos.core.model.ScheduleType;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Objects;
import java.util.OptionalLong;

/** Builds a {@link Schedule} from the stored form of a job's schedule. */
public final class Schedules {

  private Schedules() {}

  /**
   * Parses a schedule spec.
   *
   * @param spec cron expression (CRON), interval in ms (FIXED_RATE, FIXED_DELAY), epoch ms
   *     (ONE_SHOT), empty (API)
   * @param zone zone a cron is evaluated in (ignored by the other types)
   * @param anchorMs the phase of a fixed-rate schedule (the job's creation time)
   * @throws InvalidScheduleException naming what is wrong
   */
  public static Schedule parse(ScheduleType type, String spec, ZoneId zone, long anchorMs) {
    return parse(type, spec, zone, CronDialect.DEFAULT, anchorMs);
  }

  /**
   * Parses a schedule spec; a cron is read in {@code dialect}, which the other types ignore.
   *
   * @throws InvalidScheduleException naming what is wrong
   */
  public static Schedule parse(
      ScheduleType type, String spec, ZoneId zone, CronDialect dialect, long anchorMs) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(zone, "zone");
    String text = spec == null ? "" : spec.trim();
    return switch (type) {
      case CRON -> CronSchedule.parse(text, zone, dialect);
      case FIXED_RATE -> new FixedRateSchedule(number(type, text), anchorMs);
      case FIXED_DELAY -> new FixedDelaySchedule(number(type, text));
      case ONE_SHOT -> new OneShotSchedule(number(type, text));
      case API -> {
        if (!text.isEmpty()) {
          throw new InvalidScheduleException("an API job has no schedule but got '" + text + "'");
        }
        yield ApiSchedule.INSTANCE;
      }
    };
  }

  /**
   * The first fire of a schedule that is set (created, changed or re-enabled) at {@code nowMs}:
   * cron and fixed rate fire at their next time after now, fixed delay one interval after now, a
   * one-shot at its instant even when that is already past (a one-shot submitted "now" arrives a
   * little late; the scanner's misfire rules decide what a stale one does). API jobs never fire.
   */
  public static OptionalLong firstFire(Schedule schedule, long nowMs) {
    if (schedule instanceof FixedDelaySchedule delay) {
      return OptionalLong.of(delay.nextFireAfterEnd(nowMs));
    }
    if (schedule instanceof OneShotSchedule oneShot) {
      return OptionalLong.of(oneShot.atMs());
    }
    return schedule.nextFireAfter(nowMs);
  }

  /**
   * Resolves a time-zone id such as {@code Europe/Berlin} or {@code UTC}.
   *
   * @throws InvalidScheduleException when the id is unknown or malformed
   */
  public static ZoneId zone(String id) {
    if (id == null || id.isBlank()) {
      throw new InvalidScheduleException("time zone must not be empty");
    }
    try {
      return ZoneId.of(id);
    } catch (DateTimeException e) {
      throw new InvalidScheduleException("unknown time zone '" + id + "'");
    }
  }

  private static long number(ScheduleType type, String text) {
    String what = type == ScheduleType.ONE_SHOT ? "an epoch-ms instant" : "an interval in ms";
    if (text.isEmpty()) {
      throw new InvalidScheduleException(type + " schedule needs " + what);
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new InvalidScheduleException(
          type + " schedule needs " + what + " but got '" + text + "'");
    }
  }
}
