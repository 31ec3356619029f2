package dev.kairos.core.calendar;

import dev.kairos.core.model.JobId;
import dev.kairos.core.validation.ValidationProblem;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A named calendar of excluded local times, as an administrator defines it. Every exclusion is read
 * in the zone of the job being evaluated, so one "weekends" calendar serves jobs of every zone.
 *
 * <p>The record holds what was submitted, even if invalid, so {@link #problems()} reports every
 * problem at once; {@link #compile()} turns a valid definition into the {@link ExclusionCalendar}
 * the scan evaluates.
 *
 * @param name 1–64 characters of {@code [A-Za-z0-9_.-]} (the job id charset)
 * @param description free text for people, at most {@link #MAX_DESCRIPTION_LENGTH} characters
 * @param dates excluded whole days, {@code yyyy-MM-dd}
 * @param weekdays excluded days of every week, {@code MONDAY}..{@code SUNDAY}
 * @param dailyRanges excluded times of every day, {@code HH:mm[:ss]-HH:mm[:ss]}, start inclusive
 *     and end exclusive; an end at or before the start wraps midnight ({@code 22:00-06:00})
 * @param ranges excluded spans of local date-time, from inclusive, to exclusive
 * @param version bumped by every write of this calendar (the store's optimistic concurrency)
 * @param updatedMs when it was last written, epoch ms (cluster time)
 */
public record CalendarDefinition(
    String name,
    String description,
    List<String> dates,
    List<String> weekdays,
    List<String> dailyRanges,
    List<LocalRange> ranges,
    long version,
    long updatedMs) {

  public static final int MAX_DESCRIPTION_LENGTH = 1000;
  public static final int MAX_DATES = 2000;
  public static final int MAX_DAILY_RANGES = 50;
  public static final int MAX_RANGES = 500;

  /** Field names, as the API and its 400 responses name them. */
  public static final String NAME = "name";

  public static final String DESCRIPTION = "description";
  public static final String DATES = "dates";
  public static final String WEEKDAYS = "weekdays";
  public static final String DAILY_RANGES = "dailyRanges";
  public static final String RANGES = "ranges";

  /**
   * One excluded span of local date-time, ISO {@code yyyy-MM-ddTHH:mm[:ss]}.
   *
   * @param from first excluded instant (inclusive)
   * @param to end of the span (exclusive); after {@code from}
   */
  public record LocalRange(String from, String to) {}

  public CalendarDefinition {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    dates = dates == null ? List.of() : List.copyOf(dates);
    weekdays = weekdays == null ? List.of() : List.copyOf(weekdays);
    dailyRanges = dailyRanges == null ? List.of() : List.copyOf(dailyRanges);
    ranges = ranges == null ? List.of() : List.copyOf(ranges);
  }

  /** The same definition at another version and write time. */
  public CalendarDefinition withVersion(long version, long updatedMs) {
    return new CalendarDefinition(
        name, description, dates, weekdays, dailyRanges, ranges, version, updatedMs);
  }

  /**
   * Every problem of the definition, each naming its field (and the entry's index); empty = valid.
   */
  public List<ValidationProblem> problems() {
    List<ValidationProblem> problems = new ArrayList<>();
    if (!JobId.isValid(name)) {
      problems.add(
          new ValidationProblem(
              NAME, "must be 1-64 characters of [A-Za-z0-9_.-] but was '" + name + "'"));
    }
    if (description.codePointCount(0, description.length()) > MAX_DESCRIPTION_LENGTH) {
      problems.add(
          new ValidationProblem(
              DESCRIPTION, "at most " + MAX_DESCRIPTION_LENGTH + " characters are allowed"));
    }
    checkSize(problems, DATES, dates.size(), MAX_DATES);
    checkSize(problems, DAILY_RANGES, dailyRanges.size(), MAX_DAILY_RANGES);
    checkSize(problems, RANGES, ranges.size(), MAX_RANGES);
    for (int i = 0; i < dates.size(); i++) {
      if (parseDate(dates.get(i)) == null) {
        problems.add(
            new ValidationProblem(
                DATES + "[" + i + "]",
                "'" + dates.get(i) + "' is not a date of the form yyyy-MM-dd"));
      }
    }
    Set<DayOfWeek> days = new HashSet<>();
    for (int i = 0; i < weekdays.size(); i++) {
      DayOfWeek day = parseWeekday(weekdays.get(i));
      if (day == null) {
        problems.add(
            new ValidationProblem(
                WEEKDAYS + "[" + i + "]",
                "'" + weekdays.get(i) + "' is not a weekday (MONDAY..SUNDAY)"));
      } else if (!days.add(day)) {
        problems.add(new ValidationProblem(WEEKDAYS + "[" + i + "]", day + " is listed twice"));
      }
    }
    for (int i = 0; i < dailyRanges.size(); i++) {
      String problem = DailyRange.problem(dailyRanges.get(i));
      if (problem != null) {
        problems.add(new ValidationProblem(DAILY_RANGES + "[" + i + "]", problem));
      }
    }
    for (int i = 0; i < ranges.size(); i++) {
      LocalRange range = ranges.get(i);
      LocalDateTime from = range == null ? null : parseDateTime(range.from());
      LocalDateTime to = range == null ? null : parseDateTime(range.to());
      String field = RANGES + "[" + i + "]";
      if (range == null) {
        problems.add(new ValidationProblem(field, "must have a from and a to"));
      } else if (from == null) {
        problems.add(
            new ValidationProblem(
                field + ".from",
                "'" + range.from() + "' is not a local date-time yyyy-MM-ddTHH:mm[:ss]"));
      } else if (to == null) {
        problems.add(
            new ValidationProblem(
                field + ".to",
                "'" + range.to() + "' is not a local date-time yyyy-MM-ddTHH:mm[:ss]"));
      } else if (!to.isAfter(from)) {
        problems.add(new ValidationProblem(field, "to " + to + " must be after from " + from));
      }
    }
    return List.copyOf(problems);
  }

  /**
   * The evaluable form.
   *
   * @throws IllegalArgumentException when the definition has {@link #problems()}
   */
  public ExclusionCalendar compile() {
    List<ValidationProblem> problems = problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("calendar " + name + " is invalid: " + problems);
    }
    Set<LocalDate> days = new HashSet<>();
    dates.forEach(d -> days.add(parseDate(d)));
    Set<DayOfWeek> week = new HashSet<>();
    weekdays.forEach(d -> week.add(parseWeekday(d)));
    List<DailyRange> daily = dailyRanges.stream().map(DailyRange::parse).toList();
    List<ExclusionCalendar.Span> spans =
        ranges.stream()
            .map(r -> new ExclusionCalendar.Span(parseDateTime(r.from()), parseDateTime(r.to())))
            .toList();
    return new ExclusionCalendar(name, days, week, daily, spans);
  }

  private static void checkSize(List<ValidationProblem> problems, String field, int size, int max) {
    if (size > max) {
      problems.add(
          new ValidationProblem(
              field, "has " + size + " entries; at most " + max + " are allowed"));
    }
  }

  static LocalDate parseDate(String text) {
    if (text == null || text.length() != 10) {
      return null;
    }
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  static LocalDateTime parseDateTime(String text) {
    if (text == null) {
      return null;
    }
    try {
      return LocalDateTime.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  static DayOfWeek parseWeekday(String text) {
    if (text == null) {
      return null;
    }
    try {
      return DayOfWeek.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static LocalTime parseTime(String text) {
    if (text == null || !(text.length() == 5 || text.length() == 8)) {
      return null;
    }
    try {
      return LocalTime.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
