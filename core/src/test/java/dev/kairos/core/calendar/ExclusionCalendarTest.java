package dev.kairos.core.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.calendar.CalendarDefinition.LocalRange;
import dev.kairos.core.validation.ValidationProblem;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExclusionCalendarTest {

  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final ZoneId UTC = ZoneId.of("UTC");
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  private static CalendarDefinition calendar(
      List<String> dates, List<String> weekdays, List<String> daily, List<LocalRange> ranges) {
    return new CalendarDefinition("c", "", dates, weekdays, daily, ranges, 0, 0);
  }

  private static long at(String localDateTime, ZoneId zone) {
    return LocalDateTime.parse(localDateTime).atZone(zone).toInstant().toEpochMilli();
  }

  @Test
  void excludedDatesAndWeekdaysAreReadInTheJobsZone() {
    ExclusionCalendar holidays =
        calendar(List.of("2026-12-25"), List.of("saturday", "SUNDAY"), List.of(), List.of())
            .compile();
    long berlinChristmasMorning = at("2026-12-25T00:30", BERLIN); // still 24th in UTC
    assertThat(holidays.excludes(berlinChristmasMorning, BERLIN)).isTrue();
    assertThat(holidays.excludes(berlinChristmasMorning, UTC)).isFalse();
    assertThat(holidays.excludes(at("2026-11-28T12:00", UTC), UTC)).isTrue(); // a Saturday
    assertThat(holidays.excludes(at("2026-11-30T12:00", UTC), UTC)).isFalse(); // a Monday
  }

  @Test
  void aDailyRangeWrapsMidnightWhenItsEndIsBeforeItsStart() {
    ExclusionCalendar night =
        calendar(List.of(), List.of(), List.of("22:00-06:00"), List.of()).compile();
    assertThat(night.excludes(at("2026-03-02T21:59:59", UTC), UTC)).isFalse();
    assertThat(night.excludes(at("2026-03-02T22:00", UTC), UTC)).isTrue();
    assertThat(night.excludes(at("2026-03-03T00:00", UTC), UTC)).isTrue();
    assertThat(night.excludes(at("2026-03-03T05:59:59", UTC), UTC)).isTrue();
    assertThat(night.excludes(at("2026-03-03T06:00", UTC), UTC)).isFalse();
    ExclusionCalendar window =
        calendar(List.of(), List.of(), List.of("02:00:30-02:15"), List.of()).compile();
    assertThat(window.excludes(at("2026-03-03T02:00:29", UTC), UTC)).isFalse();
    assertThat(window.excludes(at("2026-03-03T02:00:30", UTC), UTC)).isTrue();
    assertThat(window.excludes(at("2026-03-03T02:15", UTC), UTC)).isFalse();
  }

  @Test
  void onDstDaysTheLocalWallClockDecides() {
    ExclusionCalendar maintenance =
        calendar(List.of(), List.of(), List.of("02:00-03:00"), List.of()).compile();
    // Spring forward in Berlin (2026-03-29): 02:00-03:00 does not exist; 01:59 and 03:00 run.
    long beforeGap = at("2026-03-29T01:59", BERLIN);
    assertThat(maintenance.excludes(beforeGap, BERLIN)).isFalse();
    assertThat(maintenance.excludes(beforeGap + 60_000, BERLIN)).isFalse(); // 03:00 CEST
    // Fall back in Berlin (2026-10-25): 02:00-03:00 happens twice, both are excluded.
    ZonedDateTime first =
        ZonedDateTime.of(2026, 10, 25, 2, 30, 0, 0, BERLIN).withEarlierOffsetAtOverlap();
    ZonedDateTime second = first.withLaterOffsetAtOverlap();
    assertThat(second.toInstant().toEpochMilli() - first.toInstant().toEpochMilli())
        .isEqualTo(3_600_000);
    assertThat(maintenance.excludes(first.toInstant().toEpochMilli(), BERLIN)).isTrue();
    assertThat(maintenance.excludes(second.toInstant().toEpochMilli(), BERLIN)).isTrue();
    assertThat(maintenance.excludes(at("2026-10-25T03:00", BERLIN), BERLIN)).isFalse();
  }

  @Test
  void aRangeIsFromInclusiveToExclusiveInLocalTime() {
    ExclusionCalendar freeze =
        calendar(
                List.of(),
                List.of(),
                List.of(),
                List.of(new LocalRange("2026-12-24T18:00", "2026-12-27T06:00:00")))
            .compile();
    assertThat(freeze.excludes(at("2026-12-24T17:59:59", NEW_YORK), NEW_YORK)).isFalse();
    assertThat(freeze.excludes(at("2026-12-24T18:00", NEW_YORK), NEW_YORK)).isTrue();
    assertThat(freeze.excludes(at("2026-12-27T05:59:59", NEW_YORK), NEW_YORK)).isTrue();
    assertThat(freeze.excludes(at("2026-12-27T06:00", NEW_YORK), NEW_YORK)).isFalse();
    // The same instant in another zone is another local time.
    assertThat(freeze.excludes(at("2026-12-24T18:00", NEW_YORK), UTC)).isTrue();
    assertThat(freeze.excludes(at("2026-12-24T13:00", UTC), UTC)).isFalse();
  }

  @Test
  void everyProblemNamesItsFieldAndEntry() {
    CalendarDefinition bad =
        new CalendarDefinition(
            "no spaces",
            "",
            List.of("2026-02-30", "2026-01-01"),
            List.of("FUNDAY"),
            List.of("25:00-01:00", "08:00-08:00", "nodash"),
            List.of(
                new LocalRange("2026-01-02T10:00", "2026-01-02T09:00"),
                new LocalRange("yesterday", "2026-01-02T09:00")),
            0,
            0);
    assertThat(bad.problems())
        .extracting(ValidationProblem::field)
        .containsExactly(
            "name",
            "dates[0]",
            "weekdays[0]",
            "dailyRanges[0]",
            "dailyRanges[1]",
            "dailyRanges[2]",
            "ranges[0]",
            "ranges[1].from");
    assertThatThrownBy(bad::compile).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theSplitRecordsExcludedFiresUnderTheFirstCalendarThatExcludesThem() {
    ExclusionCalendar weekends =
        new CalendarDefinition(
                "weekends",
                "",
                List.of(),
                List.of("SATURDAY", "SUNDAY"),
                List.of(),
                List.of(),
                0,
                0)
            .compile();
    ExclusionCalendar xmas =
        new CalendarDefinition(
                "xmas", "", List.of("2026-12-25"), List.of(), List.of(), List.of(), 0, 0)
            .compile();
    long thu = at("2026-12-24T09:00", UTC);
    long fri = at("2026-12-25T09:00", UTC);
    long sat = at("2026-12-26T09:00", UTC);
    long mon = at("2026-12-28T09:00", UTC);
    CalendarSplit split =
        CalendarSplit.of(
            List.of(thu, fri, sat, mon),
            List.of("gone", "xmas", "weekends"),
            Map.of("weekends", weekends, "xmas", xmas),
            UTC);
    assertThat(split.claimed()).containsExactly(thu, mon);
    assertThat(split.skipped())
        .containsExactly(new SkippedFire(fri, "xmas"), new SkippedFire(sat, "weekends"));
    assertThat(split.unknown()).containsExactly("gone");
  }

  @Test
  void aJobWhoseCalendarsAreAllGoneClaimsEveryFire() {
    CalendarSplit split = CalendarSplit.of(List.of(1L, 2L), List.of("gone"), Map.of(), UTC);
    assertThat(split.claimed()).containsExactly(1L, 2L);
    assertThat(split.skipped()).isEmpty();
  }
}
