package dev.kairos.node.api.calendar;

import dev.kairos.core.calendar.CalendarDefinition;
import dev.kairos.core.calendar.CalendarDefinition.LocalRange;
import dev.kairos.node.api.web.StrictJson;
import java.util.List;

/**
 * A calendar as a client writes it (a full replacement); its name is the path's. Every exclusion is
 * read in the zone of the job being evaluated.
 *
 * @param description free text, at most 1000 characters; absent: none
 * @param dates excluded whole days, {@code yyyy-MM-dd}
 * @param weekdays excluded days of every week, {@code MONDAY}..{@code SUNDAY}
 * @param dailyRanges excluded times of every day, {@code HH:mm[:ss]-HH:mm[:ss]} (start inclusive,
 *     end exclusive; an end at or before the start wraps midnight)
 * @param ranges excluded spans of local date-time {@code {"from": "2026-12-24T18:00", "to":
 *     "2026-12-27T06:00"}}, from inclusive, to exclusive
 */
public record CalendarRequest(
    String description,
    List<String> dates,
    List<String> weekdays,
    List<String> dailyRanges,
    List<Range> ranges)
    implements StrictJson {

  /** One excluded span of local date-time. */
  public record Range(String from, String to) implements StrictJson {}

  CalendarDefinition toDefinition(String name) {
    return new CalendarDefinition(
        name,
        description,
        dates,
        weekdays,
        dailyRanges,
        ranges == null
            ? List.of()
            : ranges.stream()
                .map(r -> r == null ? null : new LocalRange(r.from(), r.to()))
                .toList(),
        0,
        0);
  }
}
