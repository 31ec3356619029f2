package dev.kairos.node.api.calendar;

import dev.kairos.core.calendar.CalendarDefinition;
import java.util.List;

/**
 * A calendar as the API shows it.
 *
 * @param version bumped by every write of this calendar
 * @param updatedMs when it was last written, epoch ms
 */
public record CalendarView(
    String name,
    String description,
    List<String> dates,
    List<String> weekdays,
    List<String> dailyRanges,
    List<CalendarRequest.Range> ranges,
    long version,
    long updatedMs) {

  static CalendarView of(CalendarDefinition c) {
    return new CalendarView(
        c.name(),
        c.description(),
        c.dates(),
        c.weekdays(),
        c.dailyRanges(),
        c.ranges().stream().map(r -> new CalendarRequest.Range(r.from(), r.to())).toList(),
        c.version(),
        c.updatedMs());
  }
}
