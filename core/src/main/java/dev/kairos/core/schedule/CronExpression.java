package dev.kairos.core.schedule;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

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
 */
final class CronExpression {

  private static final String[] FIELD_NAMES = {
    "second", "minute", "hour", "day-of-month", "month", "day-of-week"
  };
  private static final String[] MONTHS = {
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
  };
  private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

  private final String text;
  private final long seconds;
  private final long minutes;
  private final long hours;
  private final long months;
  private final DayField daysOfMonth;
  private final DayField daysOfWeek;

  private CronExpression(
      String text,
      long seconds,
      long minutes,
      long hours,
      long months,
      DayField daysOfMonth,
      DayField daysOfWeek) {
    this.text = text;
    this.seconds = seconds;
    this.minutes = minutes;
    this.hours = hours;
    this.months = months;
    this.daysOfMonth = daysOfMonth;
    this.daysOfWeek = daysOfWeek;
  }

  /**
   * @throws InvalidScheduleException naming the field and the offending part
   */
  static CronExpression parse(String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidScheduleException("cron expression must not be empty");
    }
    String[] fields = text.trim().split("\\s+");
    if (fields.length != 6) {
      throw new InvalidScheduleException(
          "cron '"
              + text
              + "' has "
              + fields.length
              + " fields; expected 6: second minute hour day-of-month month day-of-week");
    }
    FieldParser p = new FieldParser(text);
    return new CronExpression(
        text.trim(),
        p.mask(0, fields[0], 0, 59, null),
        p.mask(1, fields[1], 0, 59, null),
        p.mask(2, fields[2], 0, 23, null),
        p.mask(4, fields[4], 1, 12, MONTHS),
        p.daysOfMonth(fields[3]),
        p.daysOfWeek(fields[5]));
  }

  String text() {
    return text;
  }

  /**
   * The first local date-time ≥ {@code from} (truncated to whole seconds) that matches, searching
   * no later than the end of {@code lastYear}; empty when there is none (e.g. February 30).
   */
  Optional<LocalDateTime> nextMatch(LocalDateTime from, int lastYear) {
    LocalDateTime t = from.withNano(0);
    while (t.getYear() <= lastYear) {
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
    return has(seconds, t.getSecond())
        && has(minutes, t.getMinute())
        && has(hours, t.getHour())
        && has(months, t.getMonthValue())
        && dayMatches(t.toLocalDate());
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

  private static boolean has(long mask, int value) {
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

  /** A day field: a bit mask plus the special forms (L, W, #), which depend on the month. */
  private record DayField(
      boolean unrestricted, boolean ofWeek, long mask, List<Predicate<LocalDate>> specials) {

    boolean test(LocalDate date) {
      int bit = ofWeek ? date.getDayOfWeek().getValue() % 7 : date.getDayOfMonth();
      if (has(mask, bit)) {
        return true;
      }
      for (Predicate<LocalDate> special : specials) {
        if (special.test(date)) {
          return true;
        }
      }
      return false;
    }
  }

  /** Parses fields of one expression so errors can quote it. */
  private record FieldParser(String expression) {

    long mask(int field, String text, int min, int max, String[] names) {
      long mask = 0;
      for (String item : text.split(",", -1)) {
        mask |= item(field, text, item, min, max, names);
      }
      return mask;
    }

    private long item(int field, String text, String item, int min, int max, String[] names) {
      if (item.isEmpty()) {
        throw error(field, text, "empty list element");
      }
      String range = item;
      int step = 1;
      int slash = item.indexOf('/');
      if (slash >= 0) {
        range = item.substring(0, slash);
        step = number(field, text, item.substring(slash + 1), null, 1, max - min + 1);
      }
      int from;
      int to;
      if (range.equals("*")) {
        from = min;
        to = max;
      } else {
        int dash = range.indexOf('-', 1);
        if (dash >= 0) {
          from = number(field, text, range.substring(0, dash), names, min, max);
          to = number(field, text, range.substring(dash + 1), names, min, max);
        } else {
          from = number(field, text, range, names, min, max);
          // "a/s" means from a to the end of the field, stepping s (Quartz, Spring).
          to = slash >= 0 ? max : from;
        }
      }
      long mask = 0;
      int span = to >= from ? to - from : to - from + (max - min + 1);
      for (int offset = 0; offset <= span; offset += step) {
        int value = from + offset;
        if (value > max) {
          value -= max - min + 1;
        }
        mask |= 1L << value;
      }
      return mask;
    }

    private int number(int field, String text, String part, String[] names, int min, int max) {
      if (names != null) {
        String upper = part.toUpperCase(Locale.ROOT);
        for (int i = 0; i < names.length; i++) {
          if (names[i].equals(upper)) {
            return i + (names == MONTHS ? 1 : 0);
          }
        }
      }
      int value;
      try {
        value = Integer.parseInt(part);
      } catch (NumberFormatException e) {
        throw error(
            field, text, "'" + part + "' is not a number" + (names == null ? "" : " or name"));
      }
      if (value < min || value > max) {
        throw error(field, text, value + " is outside " + min + "-" + max);
      }
      return value;
    }

    DayField daysOfMonth(String text) {
      if (text.equals("*") || text.equals("?")) {
        return new DayField(true, false, 0, List.of());
      }
      long mask = 0;
      List<Predicate<LocalDate>> specials = new ArrayList<>();
      for (String item : text.split(",", -1)) {
        String upper = item.toUpperCase(Locale.ROOT);
        if (upper.equals("L")) {
          specials.add(d -> d.getDayOfMonth() == d.lengthOfMonth());
        } else if (upper.startsWith("L-")) {
          int before = number(3, text, upper.substring(2), null, 0, 30);
          specials.add(d -> d.getDayOfMonth() == d.lengthOfMonth() - before);
        } else if (upper.equals("LW")) {
          specials.add(d -> d.getDayOfMonth() == nearestWeekday(d, d.lengthOfMonth()));
        } else if (upper.endsWith("W")) {
          int day = number(3, text, upper.substring(0, upper.length() - 1), null, 1, 31);
          specials.add(
              d -> day <= d.lengthOfMonth() && d.getDayOfMonth() == nearestWeekday(d, day));
        } else {
          mask |= item(3, text, item, 1, 31, null);
        }
      }
      return new DayField(false, false, mask, specials);
    }

    DayField daysOfWeek(String text) {
      if (text.equals("*") || text.equals("?")) {
        return new DayField(true, true, 0, List.of());
      }
      long mask = 0;
      List<Predicate<LocalDate>> specials = new ArrayList<>();
      for (String item : text.split(",", -1)) {
        String upper = item.toUpperCase(Locale.ROOT);
        int hash = upper.indexOf('#');
        if (hash >= 0) {
          DayOfWeek day = dayOfWeek(number(5, text, upper.substring(0, hash), DAYS, 0, 7));
          int nth = number(5, text, upper.substring(hash + 1), null, 1, 5);
          specials.add(d -> d.getDayOfWeek() == day && (d.getDayOfMonth() - 1) / 7 + 1 == nth);
        } else if (upper.length() > 1 && upper.endsWith("L")) {
          DayOfWeek day =
              dayOfWeek(number(5, text, upper.substring(0, upper.length() - 1), DAYS, 0, 7));
          specials.add(d -> d.getDayOfWeek() == day && d.getDayOfMonth() + 7 > d.lengthOfMonth());
        } else {
          long bits = item(5, text, item, 0, 7, DAYS);
          // 7 is Sunday as well as 0.
          mask |= (bits & 0x7F) | ((bits >>> 7) & 1);
        }
      }
      return new DayField(false, true, mask, specials);
    }

    private InvalidScheduleException error(int field, String text, String problem) {
      return new InvalidScheduleException(
          "cron '" + expression + "': " + FIELD_NAMES[field] + " field '" + text + "': " + problem);
    }
  }

  private static DayOfWeek dayOfWeek(int cronDay) {
    return cronDay % 7 == 0 ? DayOfWeek.SUNDAY : DayOfWeek.of(cronDay);
  }

  /** The weekday nearest to {@code day} in {@code date}'s month, never leaving the month. */
  private static int nearestWeekday(LocalDate date, int day) {
    DayOfWeek dow = date.withDayOfMonth(day).getDayOfWeek();
    if (dow == DayOfWeek.SATURDAY) {
      return day == 1 ? 3 : day - 1;
    }
    if (dow == DayOfWeek.SUNDAY) {
      return day == date.lengthOfMonth() ? day - 2 : day + 1;
    }
    return day;
  }
}
