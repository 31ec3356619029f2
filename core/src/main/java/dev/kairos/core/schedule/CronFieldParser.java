package dev.kairos.core.schedule;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The field syntax both {@link CronDialect}s share: lists, ranges (wrapping when {@code a > b}),
 * steps, names, and the day-of-month forms {@code L}, {@code L-n}, {@code nW}, {@code LW}, {@code
 * L-nW}. Errors name the expression, the field and the offending part.
 */
final class CronFieldParser {

  static final String[] FIELD_NAMES = {
    "second", "minute", "hour", "day-of-month", "month", "day-of-week", "year"
  };
  static final int DAY_OF_MONTH = 3;
  static final int DAY_OF_WEEK = 5;
  static final String[] MONTHS = {
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
  };
  static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

  private final String expression;

  CronFieldParser(String expression) {
    this.expression = expression;
  }

  /** A field of plain items as a bit mask (bit v set when value v matches). */
  long mask(int field, String text, int min, int max, String[] names) {
    long mask = 0;
    for (String item : text.split(",", -1)) {
      mask |= item(field, text, item, min, max, names);
    }
    return mask;
  }

  /**
   * One item: {@code *}, {@code n}, {@code a-b}, and each with {@code /s}. Names, when given, map
   * to {@code min + index} for months and to their index for days of week (the caller shifts).
   */
  long item(int field, String text, String item, int min, int max, String[] names) {
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

  /**
   * A number in {@code [min, max]} or a name; a name's value is its index, plus one for months. Day
   * names are therefore 0-6 (SUN = 0); the Quartz dialect adds one itself.
   */
  int number(int field, String text, String part, String[] names, int min, int max) {
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

  /** The day-of-month field; {@code *} and {@code ?} are unrestricted. */
  CronDayField daysOfMonth(String text) {
    if (text.equals("*") || text.equals("?")) {
      return new CronDayField(true, false, 0, List.of());
    }
    long mask = 0;
    List<Predicate<LocalDate>> specials = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      String upper = item.toUpperCase(Locale.ROOT);
      if (upper.equals("L")) {
        specials.add(d -> d.getDayOfMonth() == d.lengthOfMonth());
      } else if (upper.startsWith("L-") && upper.endsWith("W")) {
        int before =
            number(DAY_OF_MONTH, text, upper.substring(2, upper.length() - 1), null, 0, 30);
        specials.add(
            d -> {
              int day = d.lengthOfMonth() - before;
              return day >= 1 && d.getDayOfMonth() == nearestWeekday(d, day);
            });
      } else if (upper.startsWith("L-")) {
        int before = number(DAY_OF_MONTH, text, upper.substring(2), null, 0, 30);
        specials.add(d -> d.getDayOfMonth() == d.lengthOfMonth() - before);
      } else if (upper.equals("LW")) {
        specials.add(d -> d.getDayOfMonth() == nearestWeekday(d, d.lengthOfMonth()));
      } else if (upper.endsWith("W")) {
        int day = number(DAY_OF_MONTH, text, upper.substring(0, upper.length() - 1), null, 1, 31);
        specials.add(d -> day <= d.lengthOfMonth() && d.getDayOfMonth() == nearestWeekday(d, day));
      } else {
        mask |= item(DAY_OF_MONTH, text, item, 1, 31, null);
      }
    }
    return new CronDayField(false, false, mask, specials);
  }

  InvalidScheduleException error(int field, String text, String problem) {
    return new InvalidScheduleException(
        "cron '" + expression + "': " + FIELD_NAMES[field] + " field '" + text + "': " + problem);
  }

  InvalidScheduleException error(String problem) {
    return new InvalidScheduleException("cron '" + expression + "': " + problem);
  }

  /** The day of week of a cron value where 0 and 7 are Sunday and 1 is Monday. */
  static DayOfWeek dayOfWeek(int sundayZero) {
    return sundayZero % 7 == 0 ? DayOfWeek.SUNDAY : DayOfWeek.of(sundayZero);
  }

  /** The k-th {@code day} of the month (1-5). */
  static Predicate<LocalDate> nthWeekday(DayOfWeek day, int nth) {
    return d -> d.getDayOfWeek() == day && (d.getDayOfMonth() - 1) / 7 + 1 == nth;
  }

  /** The last {@code day} of the month. */
  static Predicate<LocalDate> lastWeekday(DayOfWeek day) {
    return d -> d.getDayOfWeek() == day && d.getDayOfMonth() + 7 > d.lengthOfMonth();
  }

  /** The weekday nearest to {@code day} in {@code date}'s month, never leaving the month. */
  static int nearestWeekday(LocalDate date, int day) {
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
