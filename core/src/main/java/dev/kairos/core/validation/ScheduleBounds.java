package dev.kairos.core.validation;

import dev.kairos.core.schedule.CronSchedule;
import dev.kairos.core.schedule.FixedDelaySchedule;
import dev.kairos.core.schedule.FixedRateSchedule;
import dev.kairos.core.schedule.OneShotSchedule;
import dev.kairos.core.schedule.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a well-formed schedule must also be to be accepted: one that fires, and not absurdly. A
 * schedule outside these bounds is a mistake far more often than an intent (a ONE_SHOT at {@code
 * 1000} meant seconds, not 1970; {@code 0 0 0 30 2 *} never comes), so it is refused with the
 * reason instead of being stored silently.
 */
public final class ScheduleBounds {

  /** The shortest FIXED_RATE / FIXED_DELAY interval: ten fires a second per job. */
  public static final long MIN_INTERVAL_MS = 100;

  /** The longest interval: ten years (a longer wait is a ONE_SHOT). */
  public static final long MAX_INTERVAL_MS = Duration.ofDays(3650).toMillis();

  /** The earliest ONE_SHOT instant, 2000-01-01T00:00:00Z: an earlier one is a unit mistake. */
  public static final long EARLIEST_ONE_SHOT_MS =
      Instant.parse("2000-01-01T00:00:00Z").toEpochMilli();

  /** The latest ONE_SHOT instant, 9999-12-31T23:59:59.999Z. */
  public static final long LATEST_ONE_SHOT_MS =
      Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();

  private ScheduleBounds() {}

  /**
   * Why {@code schedule} is refused, or empty when it is accepted.
   *
   * @param fromMs when the schedule starts (the job's creation): a cron must fire after it
   */
  public static Optional<String> problem(Schedule schedule, long fromMs) {
    if (schedule instanceof FixedRateSchedule rate) {
      return interval(rate.intervalMs());
    }
    if (schedule instanceof FixedDelaySchedule delay) {
      return interval(delay.intervalMs());
    }
    if (schedule instanceof OneShotSchedule oneShot) {
      long at = oneShot.atMs();
      if (at < EARLIEST_ONE_SHOT_MS || at > LATEST_ONE_SHOT_MS) {
        return Optional.of(
            "a ONE_SHOT instant is epoch milliseconds between "
                + Instant.ofEpochMilli(EARLIEST_ONE_SHOT_MS)
                + " and "
                + Instant.ofEpochMilli(LATEST_ONE_SHOT_MS)
                + " but was "
                + at);
      }
    }
    if (schedule instanceof CronSchedule cron && cron.nextFireAfter(fromMs).isEmpty()) {
      return Optional.of(
          "cron '"
              + JobValidator.abbreviate(cron.expression())
              + "' never fires after "
              + Instant.ofEpochMilli(fromMs)
              + " (e.g. a day that no month has, or a year already past)");
    }
    return Optional.empty();
  }

  private static Optional<String> interval(long intervalMs) {
    if (intervalMs < MIN_INTERVAL_MS || intervalMs > MAX_INTERVAL_MS) {
      return Optional.of(
          "an interval is "
              + MIN_INTERVAL_MS
              + ".."
              + MAX_INTERVAL_MS
              + " ms (0.1 s to 10 years) but was "
              + intervalMs);
    }
    return Optional.empty();
  }
}
