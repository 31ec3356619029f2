package dev.kairos.core.calendar;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A compiled {@link CalendarDefinition}: answers whether a fire time falls in one of its
 * exclusions, read in the job's zone. Immutable and thread-safe.
 *
 * <p>Local times are those of the fire's instant in the zone, so DST needs no special rule: a fire
 * never lands in a spring-forward gap (no instant has that local time), and both instants of an
 * autumn-back hour read as the same local time, so an exclusion covering it excludes both.
 */
public final class ExclusionCalendar {

  /** An excluded span of local date-time, from inclusive, to exclusive. */
  record Span(LocalDateTime from, LocalDateTime to) {}

  private final String name;
  private final Set<LocalDate> dates;
  private final Set<DayOfWeek> weekdays;
  private final List<DailyRange> daily;
  private final List<Span> spans;

  ExclusionCalendar(
      String name,
      Set<LocalDate> dates,
      Set<DayOfWeek> weekdays,
      List<DailyRange> daily,
      List<Span> spans) {
    this.name = name;
    this.dates = Set.copyOf(dates);
    this.weekdays = weekdays.isEmpty() ? Set.of() : EnumSet.copyOf(weekdays);
    this.daily = List.copyOf(daily);
    this.spans = List.copyOf(spans);
  }

  public String name() {
    return name;
  }

  /** Whether {@code fireMs} falls in an exclusion of this calendar, read in {@code zone}. */
  public boolean excludes(long fireMs, ZoneId zone) {
    LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(fireMs), zone);
    if (!weekdays.isEmpty() && weekdays.contains(local.getDayOfWeek())) {
      return true;
    }
    if (!dates.isEmpty() && dates.contains(local.toLocalDate())) {
      return true;
    }
    for (DailyRange range : daily) {
      if (range.contains(local.toLocalTime())) {
        return true;
      }
    }
    for (Span span : spans) {
      if (!local.isBefore(span.from()) && local.isBefore(span.to())) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "ExclusionCalendar[" + name + "]";
  }
}
