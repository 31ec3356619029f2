package dev.kairos.core.calendar;

import java.time.LocalTime;

/**
 * An excluded time of every day, {@code [start, end)} in local time; when {@code end <= start} it
 * wraps midnight ({@code 22:00-06:00} excludes 22:00 up to 06:00 the next morning).
 */
record DailyRange(long startNanos, long endNanos) {

  static final String FORM = "HH:mm[:ss]-HH:mm[:ss]";

  boolean contains(LocalTime time) {
    long t = time.toNanoOfDay();
    return startNanos < endNanos
        ? t >= startNanos && t < endNanos
        : t >= startNanos || t < endNanos;
  }

  /** What is wrong with {@code text}, or null when it is a valid range. */
  static String problem(String text) {
    if (text == null) {
      return "must not be null";
    }
    int dash = text.indexOf('-');
    if (dash < 0) {
      return "'" + text + "' is not a range of the form " + FORM;
    }
    LocalTime start = CalendarDefinition.parseTime(text.substring(0, dash).trim());
    LocalTime end = CalendarDefinition.parseTime(text.substring(dash + 1).trim());
    if (start == null || end == null) {
      return "'" + text + "' is not a range of the form " + FORM;
    }
    if (start.equals(end)) {
      return "'" + text + "' is empty; exclude whole days with dates or weekdays";
    }
    return null;
  }

  static DailyRange parse(String text) {
    int dash = text.indexOf('-');
    return new DailyRange(
        CalendarDefinition.parseTime(text.substring(0, dash).trim()).toNanoOfDay(),
        CalendarDefinition.parseTime(text.substring(dash + 1).trim()).toNanoOfDay());
  }
}
