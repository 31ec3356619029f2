package dev.kairos.core.schedule;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.BitSet;
import java.util.Optional;

/**
 * A parsed six-field cron expression, {@code second minute hour day-of-month month day-of-week},
 * matched against local date-times; {@link CronSchedule} maps the result onto instants.
 *
 * <p>Each field is a comma-separated list of {@code *}, {@code n}, {@code a-b} (wrapping when
 * {@code a > b}, e.g. {@code FRI-MON} or hours {@code 22-2}) and steps <code>*&#47;s</code>, {@code
 * a/s}, {@code a-b/s}. Months accept {@code JAN-DEC}, days of week {@code SUN-SAT} and {@code 0-7}
 * (0 and 7 are Sunday). Day-of-month and day-of-week accept {@code ?} (same as {@code *}). Also
 * supported, because they are cheap to evaluate: day-of-month {@code L} (last day), {@code L-n} (n
 * days before the last), {@code nW} (weekday nearest to day n, not leaving the month), {@code LW}
 * (last weekday); day-of-week {@code nL} (last such weekday of the month) and {@code n#k} (k-th
 * such weekday).
 *
 * <p>When both day fields are restricted (neither is {@code *} nor {@code ?}), a day matches if
 * either matches, as in classic (Vixie) cron; otherwise only the restricted one counts.
 *
 * <p>That is the {@link CronDialect#KAIROS} dialect. {@link QuartzCronParser} reads the {@link
 * CronDialect#QUARTZ} one into the same structure, plus an optional year set.
 */
final class CronExpression {

  private final String text;
  private final long seconds;
  private final long minutes;
  private final long hours;
  private final long months;
  private final CronDayField daysOfMonth;
  private final CronDayField daysOfWeek;
  // Years as offsets from QuartzCronParser.MIN_YEAR; null when every year matches.
  private final BitSet years;

  CronExpression(
      String text,
      long seconds,
      long minutes,
      long hours,
      long months,
      CronDayField daysOfMonth,
      CronDayField daysOfWeek,
      BitSet years) {
    this.text = text;
    this.seconds = seconds;
    this.minutes = minutes;
    this.hours = hours;
    this.months = months;
    this.daysOfMonth = daysOfMonth;
    this.daysOfWeek = daysOfWeek;
    this.years = years == null ? null : (BitSet) years.clone();
  }

  /**
   * @throws InvalidScheduleException naming the field and the offending part
   */
  static CronExpression parse(String text, CronDialect dialect) {
    return switch (dialect) {
      case KAIROS -> CronParser.parse(text);
      case QUARTZ -> QuartzCronParser.parse(text);
    };
  }

  String text() {
    return text;
  }

  /**
   * The last year worth searching from {@code fromYear}: {@code fromYear + searchYears}, or the
   * last year of a year field beyond that (a Quartz cron may name a year decades ahead).
   */
  int lastSearchYear(int fromYear, int searchYears) {
    int limit = fromYear + searchYears;
    if (years != null && !years.isEmpty()) {
      limit = Math.max(limit, QuartzCronParser.MIN_YEAR + years.length() - 1);
    }
    return limit;
  }

  /**
   * The first local date-time ≥ {@code from} (truncated to whole seconds) that matches, searching
   * no later than the end of {@code lastYear}; empty when there is none (e.g. February 30).
   */
  Optional<LocalDateTime> nextMatch(LocalDateTime from, int lastYear) {
    LocalDateTime t = from.withNano(0);
    while (t.getYear() <= lastYear) {
      if (!yearMatches(t.getYear())) {
        int next = years.nextSetBit(Math.max(0, t.getYear() - QuartzCronParser.MIN_YEAR + 1));
        if (next < 0) {
          return Optional.empty();
        }
        t = LocalDateTime.of(QuartzCronParser.MIN_YEAR + next, 1, 1, 0, 0);
        continue;
      }
      if (!has(months, t.getMonthValue())) {
        t = t.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay();
        continue;
      }
      if (!dayMatches(t.toLocalDate())) {
        t = t.toLocalDate().plusDays(1).atStartOfDay();
        continue;
      }
      int hour = next(hours, t.getHour());
      if (hour < 0) {
        t = t.toLocalDate().plusDays(1).atStartOfDay();
        continue;
      }
      if (hour != t.getHour()) {
        t = t.withHour(hour).withMinute(0).withSecond(0);
      }
      int minute = next(minutes, t.getMinute());
      if (minute < 0) {
        t = t.withMinute(0).withSecond(0).plusHours(1);
        continue;
      }
      if (minute != t.getMinute()) {
        t = t.withMinute(minute).withSecond(0);
      }
      int second = next(seconds, t.getSecond());
      if (second < 0) {
        t = t.withSecond(0).plusMinutes(1);
        continue;
      }
      return Optional.of(t.withSecond(second));
    }
    return Optional.empty();
  }

  /** Whether {@code t} (to the second) matches every field. */
  boolean matches(LocalDateTime t) {
    return yearMatches(t.getYear())
        && has(seconds, t.getSecond())
        && has(minutes, t.getMinute())
        && has(hours, t.getHour())
        && has(months, t.getMonthValue())
        && dayMatches(t.toLocalDate());
  }

  private boolean yearMatches(int year) {
    int offset = year - QuartzCronParser.MIN_YEAR;
    return years == null || (offset >= 0 && years.get(offset));
  }

  private boolean dayMatches(LocalDate date) {
    if (daysOfMonth.unrestricted()) {
      return daysOfWeek.unrestricted() || daysOfWeek.test(date);
    }
    if (daysOfWeek.unrestricted()) {
      return daysOfMonth.test(date);
    }
    return daysOfMonth.test(date) || daysOfWeek.test(date);
  }

  static boolean has(long mask, int value) {
    return (mask & (1L << value)) != 0;
  }

  /** Smallest set bit ≥ from, or -1. */
  private static int next(long mask, int from) {
    long rest = mask & (-1L << from);
    return rest == 0 ? -1 : Long.numberOfTrailingZeros(rest);
  }

  @Override
  public String toString() {
    return text;
  }
}
