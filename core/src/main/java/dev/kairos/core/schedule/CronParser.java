package dev.kairos.core.schedule;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/** Parses the text of a {@link CronExpression}; the syntax is documented there. */
final class CronParser {

  private static final String[] FIELD_NAMES = {
    "second", "minute", "hour", "day-of-month", "month", "day-of-week"
  };
  private static final String[] MONTHS = {
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
  };
  private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

  private final String expression;

  private CronParser(String expression) {
    this.expression = expression;
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
    CronParser p = new CronParser(text);
    return new CronExpression(
        text.trim(),
        p.mask(0, fields[0], 0, 59, null),
        p.mask(1, fields[1], 0, 59, null),
        p.mask(2, fields[2], 0, 23, null),
        p.mask(4, fields[4], 1, 12, MONTHS),
        p.daysOfMonth(fields[3]),
        p.daysOfWeek(fields[5]));
  }

  private long mask(int field, String text, int min, int max, String[] names) {
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

  private CronDayField daysOfMonth(String text) {
    if (text.equals("*") || text.equals("?")) {
      return new CronDayField(true, false, 0, List.of());
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
        specials.add(d -> day <= d.lengthOfMonth() && d.getDayOfMonth() == nearestWeekday(d, day));
      } else {
        mask |= item(3, text, item, 1, 31, null);
      }
    }
    return new CronDayField(false, false, mask, specials);
  }

  private CronDayField daysOfWeek(String text) {
    if (text.equals("*") || text.equals("?")) {
      return new CronDayField(true, true, 0, List.of());
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
    return new CronDayField(false, true, mask, specials);
  }

  private InvalidScheduleException error(int field, String text, String problem) {
    return new InvalidScheduleException(
        "cron '" + expression + "': " + FIELD_NAMES[field] + " field '" + text + "': " + problem);
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
