package dev.kairos.core.schedule;

import static dev.kairos.core.schedule.CronFieldParser.DAYS;
import static dev.kairos.core.schedule.CronFieldParser.DAY_OF_WEEK;
import static dev.kairos.core.schedule.CronFieldParser.MONTHS;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Parses the text of a {@link CronExpression} in the {@link CronDialect#KAIROS} dialect; the syntax
 * is documented there.
 */
final class CronParser {

  private CronParser() {}

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
    CronFieldParser p = new CronFieldParser(text);
    return new CronExpression(
        text.trim(),
        p.mask(0, fields[0], 0, 59, null),
        p.mask(1, fields[1], 0, 59, null),
        p.mask(2, fields[2], 0, 23, null),
        p.mask(4, fields[4], 1, 12, MONTHS),
        p.daysOfMonth(fields[3]),
        daysOfWeek(p, fields[5]),
        null);
  }

  /** Day-of-week 0-7: 0 and 7 are Sunday, 1 is Monday. */
  private static CronDayField daysOfWeek(CronFieldParser p, String text) {
    if (text.equals("*") || text.equals("?")) {
      return new CronDayField(true, true, 0, List.of());
    }
    long mask = 0;
    List<Predicate<LocalDate>> specials = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      String upper = item.toUpperCase(Locale.ROOT);
      int hash = upper.indexOf('#');
      if (hash >= 0) {
        DayOfWeek day =
            CronFieldParser.dayOfWeek(
                p.number(DAY_OF_WEEK, text, upper.substring(0, hash), DAYS, 0, 7));
        int nth = p.number(DAY_OF_WEEK, text, upper.substring(hash + 1), null, 1, 5);
        specials.add(CronFieldParser.nthWeekday(day, nth));
      } else if (upper.length() > 1 && upper.endsWith("L")) {
        DayOfWeek day =
            CronFieldParser.dayOfWeek(
                p.number(DAY_OF_WEEK, text, upper.substring(0, upper.length() - 1), DAYS, 0, 7));
        specials.add(CronFieldParser.lastWeekday(day));
      } else {
        long bits = p.item(DAY_OF_WEEK, text, item, 0, 7, DAYS);
        // 7 is Sunday as well as 0.
        mask |= (bits & 0x7F) | ((bits >>> 7) & 1);
      }
    }
    return new CronDayField(false, true, mask, specials);
  }
}
