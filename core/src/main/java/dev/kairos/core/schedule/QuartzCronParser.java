package dev.kairos.core.schedule;

import static dev.kairos.core.schedule.CronFieldParser.DAY_OF_MONTH;
import static dev.kairos.core.schedule.CronFieldParser.DAY_OF_WEEK;
import static dev.kairos.core.schedule.CronFieldParser.MONTHS;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Parses a cron in the {@link CronDialect#QUARTZ} dialect, the way Quartz's {@code CronExpression}
 * (and so xxl-job) reads it: {@code second minute hour day-of-month month day-of-week [year]}.
 *
 * <ul>
 *   <li>Day-of-week is {@code 1-7} or {@code SUN-SAT} with 1 = Sunday; {@code nL} is the last such
 *       day of the month, {@code n#k} the k-th (1-5), and a lone {@code L} is Saturday (Quartz
 *       reads it as day 7). {@code L} and {@code #} items must stand alone in the field: Quartz
 *       refuses {@code L} in a list and evaluates only one day of a list that holds a {@code #}.
 *   <li>Exactly one of day-of-month and day-of-week is {@code ?}; Quartz refuses both set and both
 *       {@code ?}.
 *   <li>Year, optional: {@value #MIN_YEAR}-{@value #MAX_YEAR}, lists, ranges and steps.
 * </ul>
 */
final class QuartzCronParser {

  static final int MIN_YEAR = 1970;
  static final int MAX_YEAR = 2199;
  private static final int YEAR = 6;

  // Quartz numbers days 1-7 from Sunday; index 0 is never typed, so names map to 1-7.
  private static final String[] QUARTZ_DAYS = {
    "\u0000", "SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"
  };

  private static final Pattern NAME_ITEM = Pattern.compile("[A-Z]{3}(-[A-Z]{3}|L|#\\d+)?");

  private QuartzCronParser() {}

  /**
   * @throws InvalidScheduleException naming the field and the offending part
   */
  static CronExpression parse(String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidScheduleException("cron expression must not be empty");
    }
    String[] fields = text.trim().split("\\s+");
    if (fields.length != 6 && fields.length != 7) {
      throw new InvalidScheduleException(
          "cron '"
              + text
              + "' has "
              + fields.length
              + " fields; the QUARTZ dialect expects 6 or 7: second minute hour day-of-month"
              + " month day-of-week [year]");
    }
    CronFieldParser p = new CronFieldParser(text);
    boolean domNone = fields[3].equals("?");
    boolean dowNone = fields[5].equals("?");
    if (domNone == dowNone) {
      throw p.error(
          domNone
              ? "day-of-month and day-of-week are both '?'; exactly one of them must be '?'"
              : "day-of-month '"
                  + fields[3]
                  + "' and day-of-week '"
                  + fields[5]
                  + "' are both set; the QUARTZ dialect needs '?' in one of them (Quartz"
                  + " refuses both)");
    }
    return new CronExpression(
        text.trim(),
        p.mask(0, fields[0], 0, 59, null),
        p.mask(1, fields[1], 0, 59, null),
        p.mask(2, fields[2], 0, 23, null),
        p.mask(4, namesAlone(p, 4, fields[4]), 1, 12, MONTHS),
        p.daysOfMonth(noQuestionMarkInList(p, DAY_OF_MONTH, fields[3])),
        daysOfWeek(p, namesAlone(p, DAY_OF_WEEK, noQuestionMarkInList(p, DAY_OF_WEEK, fields[5]))),
        fields.length == 7 ? years(p, fields[6]) : null);
  }

  private static String noQuestionMarkInList(CronFieldParser p, int field, String text) {
    if (!text.equals("?") && text.contains("?")) {
      throw p.error(field, text, "'?' must be the whole field");
    }
    return text;
  }

  /**
   * Quartz reads a name only as {@code NAME} or {@code NAME-NAME} (optionally followed by {@code L}
   * or {@code #k} in day-of-week) and silently drops a step after it ({@code JAN/2} is January
   * alone), so such items are refused rather than read differently.
   */
  private static String namesAlone(CronFieldParser p, int field, String text) {
    for (String item : text.split(",", -1)) {
      String upper = item.toUpperCase(Locale.ROOT);
      if (upper.chars().anyMatch(c -> c >= 'A' && c <= 'Z' && c != 'L')
          && !NAME_ITEM.matcher(upper).matches()) {
        throw p.error(
            field,
            text,
            "'"
                + item
                + "': Quartz reads a name only alone or as NAME-NAME (no steps, no numbers)");
      }
    }
    return text;
  }

  private static CronDayField daysOfWeek(CronFieldParser p, String text) {
    if (text.equals("*") || text.equals("?")) {
      return new CronDayField(true, true, 0, List.of());
    }
    String upper = text.toUpperCase(Locale.ROOT);
    if (upper.equals("L")) {
      return new CronDayField(false, true, 1L << 6, List.of());
    }
    // No day name contains an L, so any L is the last-day form.
    boolean special = upper.indexOf('#') >= 0 || upper.indexOf('L') >= 0;
    if (special) {
      if (upper.indexOf(',') >= 0) {
        throw p.error(
            DAY_OF_WEEK, text, "an 'L' or '#' day must be alone in the field (as Quartz needs)");
      }
      return new CronDayField(false, true, 0, List.of(special(p, text, upper)));
    }
    // Bits 1-7 in Quartz's numbering; shifting by one puts Sunday on bit 0 like java.time % 7.
    long bits = p.mask(DAY_OF_WEEK, text, 1, 7, QUARTZ_DAYS);
    return new CronDayField(false, true, bits >>> 1, List.of());
  }

  private static Predicate<LocalDate> special(CronFieldParser p, String text, String upper) {
    int hash = upper.indexOf('#');
    if (hash >= 0) {
      DayOfWeek day = day(p.number(DAY_OF_WEEK, text, upper.substring(0, hash), QUARTZ_DAYS, 1, 7));
      int nth = p.number(DAY_OF_WEEK, text, upper.substring(hash + 1), null, 1, 5);
      return CronFieldParser.nthWeekday(day, nth);
    }
    String dayText = upper.substring(0, upper.length() - 1);
    return CronFieldParser.lastWeekday(
        day(p.number(DAY_OF_WEEK, text, dayText, QUARTZ_DAYS, 1, 7)));
  }

  private static DayOfWeek day(int quartzDay) {
    return CronFieldParser.dayOfWeek(quartzDay - 1);
  }

  /** The year field as a set of {@code year - MIN_YEAR}, or null for {@code *}. */
  private static BitSet years(CronFieldParser p, String text) {
    if (text.equals("*")) {
      return null;
    }
    BitSet years = new BitSet();
    for (String item : text.split(",", -1)) {
      if (item.isEmpty()) {
        throw p.error(YEAR, text, "empty list element");
      }
      String range = item;
      int step = 1;
      int slash = item.indexOf('/');
      if (slash >= 0) {
        range = item.substring(0, slash);
        step = p.number(YEAR, text, item.substring(slash + 1), null, 1, MAX_YEAR - MIN_YEAR + 1);
      }
      int from = MIN_YEAR;
      int to = MAX_YEAR;
      if (!range.equals("*")) {
        int dash = range.indexOf('-', 1);
        from =
            p.number(
                YEAR, text, dash >= 0 ? range.substring(0, dash) : range, null, MIN_YEAR, MAX_YEAR);
        to =
            dash >= 0
                ? p.number(YEAR, text, range.substring(dash + 1), null, MIN_YEAR, MAX_YEAR)
                : slash >= 0 ? MAX_YEAR : from;
        if (to < from) {
          throw p.error(YEAR, text, "the range " + range + " runs backwards");
        }
      }
      for (int year = from; year <= to; year += step) {
        years.set(year - MIN_YEAR);
      }
    }
    return years;
  }
}
