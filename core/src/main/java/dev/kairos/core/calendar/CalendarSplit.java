package dev.kairos.core.calendar;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job's planned fires split by its calendars into the fires to claim and the fires to record as
 * skipped. A pure function, tested without Redis.
 *
 * @param claimed fires no calendar excludes, ascending
 * @param skipped fires some calendar excludes (the first of the job's calendars that does is
 *     named), ascending
 * @param unknown calendar names the job references that {@code calendars} lacks (deleted since the
 *     job was saved): they exclude nothing
 */
public record CalendarSplit(List<Long> claimed, List<SkippedFire> skipped, Set<String> unknown) {

  public CalendarSplit {
    claimed = List.copyOf(claimed);
    skipped = List.copyOf(skipped);
    unknown = Set.copyOf(unknown);
  }

  /**
   * @param fires ascending fire times of one job
   * @param names the job's calendars, in its order
   * @param calendars the calendars that exist, by name
   * @param zone the job's zone
   */
  public static CalendarSplit of(
      List<Long> fires, List<String> names, Map<String, ExclusionCalendar> calendars, ZoneId zone) {
    List<ExclusionCalendar> known = new ArrayList<>(names.size());
    Set<String> unknown = new LinkedHashSet<>();
    for (String name : names) {
      ExclusionCalendar calendar = calendars.get(name);
      if (calendar == null) {
        unknown.add(name);
      } else {
        known.add(calendar);
      }
    }
    if (known.isEmpty()) {
      return new CalendarSplit(fires, List.of(), unknown);
    }
    List<Long> claimed = new ArrayList<>(fires.size());
    List<SkippedFire> skipped = new ArrayList<>();
    for (long fireMs : fires) {
      String excludedBy = null;
      for (ExclusionCalendar calendar : known) {
        if (calendar.excludes(fireMs, zone)) {
          excludedBy = calendar.name();
          break;
        }
      }
      if (excludedBy == null) {
        claimed.add(fireMs);
      } else {
        skipped.add(new SkippedFire(fireMs, excludedBy));
      }
    }
    return new CalendarSplit(claimed, skipped, unknown);
  }
}
