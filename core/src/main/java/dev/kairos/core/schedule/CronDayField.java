package dev.kairos.core.schedule;

import java.time.LocalDate;
import java.util.List;
import java.util.function.Predicate;

/** A cron day field: a bit mask plus the special forms (L, W, #), which depend on the month. */
record CronDayField(
    boolean unrestricted, boolean ofWeek, long mask, List<Predicate<LocalDate>> specials) {

  boolean test(LocalDate date) {
    int bit = ofWeek ? date.getDayOfWeek().getValue() % 7 : date.getDayOfMonth();
    if (CronExpression.has(mask, bit)) {
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
