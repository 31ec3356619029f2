package dev.kairos.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CronScheduleTest {

  private static final ZoneId UTC = ZoneOffset.UTC;
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static long ms(String offsetDateTime) {
    return OffsetDateTime.parse(offsetDateTime).toInstant().toEpochMilli();
  }

  private static String at(long epochMs) {
    return Instant.ofEpochMilli(epochMs).toString();
  }

  /** The next {@code count} fires after {@code from}, as UTC instants. */
  private static List<String> fires(String cron, ZoneId zone, String from, int count) {
    CronSchedule schedule = CronSchedule.parse(cron, zone);
    List<String> out = new ArrayList<>();
    long t = ms(from);
    for (int i = 0; i < count; i++) {
      OptionalLong next = schedule.nextFireAfter(t);
      if (next.isEmpty()) {
        break;
      }
      out.add(at(next.getAsLong()));
      t = next.getAsLong();
    }
    return out;
  }

  @Test
  void everySecondFiresOnTheNextWholeSecondStrictlyAfter() {
    CronSchedule s = CronSchedule.parse("* * * * * *", UTC);
    assertThat(s.nextFireAfter(ms("2025-01-01T00:00:00Z"))).hasValue(ms("2025-01-01T00:00:01Z"));
    assertThat(s.nextFireAfter(ms("2025-01-01T00:00:00.999Z")))
        .hasValue(ms("2025-01-01T00:00:01Z"));
    assertThat(s.nextFireAfter(ms("2025-01-01T00:00:00Z") - 1))
        .hasValue(ms("2025-01-01T00:00:00Z"));
  }

  @Test
  void listsRangesStepsAndNamesCombine() {
    assertThat(fires("0 0/20 9-10 * * MON-FRI", UTC, "2025-06-06T10:30:00Z", 4))
        .containsExactly(
            "2025-06-06T10:40:00Z",
            "2025-06-09T09:00:00Z",
            "2025-06-09T09:20:00Z",
            "2025-06-09T09:40:00Z");
    assertThat(fires("15,45 * * * * *", UTC, "2025-01-01T00:00:20Z", 3))
        .containsExactly("2025-01-01T00:00:45Z", "2025-01-01T00:01:15Z", "2025-01-01T00:01:45Z");
    assertThat(fires("0 0 12 1 jan,Jul ?", UTC, "2025-02-01T00:00:00Z", 2))
        .containsExactly("2025-07-01T12:00:00Z", "2026-01-01T12:00:00Z");
    assertThat(fires("*/20 * * * * *", UTC, "2025-01-01T00:00:41Z", 2))
        .containsExactly("2025-01-01T00:01:00Z", "2025-01-01T00:01:20Z");
  }

  @Test
  void wrappingRangesCrossTheEndOfTheField() {
    // FRI-MON = Fri, Sat, Sun, Mon; 2025-06-05 is a Thursday.
    assertThat(fires("0 0 0 * * FRI-MON", UTC, "2025-06-05T00:00:00Z", 5))
        .containsExactly(
            "2025-06-06T00:00:00Z",
            "2025-06-07T00:00:00Z",
            "2025-06-08T00:00:00Z",
            "2025-06-09T00:00:00Z",
            "2025-06-13T00:00:00Z");
    assertThat(fires("0 0 23-1 * * *", UTC, "2025-06-05T02:00:00Z", 3))
        .containsExactly("2025-06-05T23:00:00Z", "2025-06-06T00:00:00Z", "2025-06-06T01:00:00Z");
  }

  @Test
  void sundayIsBothZeroAndSeven() {
    assertThat(fires("0 0 0 * * 7", UTC, "2025-06-01T00:00:00Z", 1))
        .isEqualTo(fires("0 0 0 * * 0", UTC, "2025-06-01T00:00:00Z", 1))
        .containsExactly("2025-06-08T00:00:00Z");
  }

  @Test
  void restrictedDayOfMonthAndDayOfWeekMatchEither() {
    // The 13th or any Friday (2025-06-13 is a Friday, 2025-06-06 too).
    assertThat(fires("0 0 0 13 * FRI", UTC, "2025-06-01T00:00:00Z", 3))
        .containsExactly("2025-06-06T00:00:00Z", "2025-06-13T00:00:00Z", "2025-06-20T00:00:00Z");
  }

  @Test
  void dayThirtyOneSkipsShortMonths() {
    assertThat(fires("0 0 0 31 * *", UTC, "2025-01-31T00:00:00Z", 3))
        .containsExactly("2025-03-31T00:00:00Z", "2025-05-31T00:00:00Z", "2025-07-31T00:00:00Z");
  }

  @Test
  void leapDayFiresOnlyInLeapYearsEvenAcrossTheSkippedOne() {
    assertThat(fires("0 0 0 29 2 *", UTC, "2023-01-01T00:00:00Z", 2))
        .containsExactly("2024-02-29T00:00:00Z", "2028-02-29T00:00:00Z");
    // 2100 is not a leap year: eight years between 2096 and 2104, within the search bound.
    assertThat(fires("0 0 0 29 2 *", UTC, "2096-03-01T00:00:00Z", 1))
        .containsExactly("2104-02-29T00:00:00Z");
  }

  @Test
  void impossibleDateReturnsEmptyInsteadOfLooping() {
    CronSchedule s = CronSchedule.parse("0 0 0 30 2 *", UTC);
    assertThat(s.nextFireAfter(ms("2025-01-01T00:00:00Z"))).isEmpty();
    assertThat(CronSchedule.parse("0 0 0 31 4,6,9,11 *", UTC).nextFireAfter(0)).isEmpty();
  }

  @Test
  void lastDayAndOffsetsFromIt() {
    assertThat(fires("0 0 0 L * *", UTC, "2024-01-31T00:00:00Z", 2))
        .containsExactly("2024-02-29T00:00:00Z", "2024-03-31T00:00:00Z");
    assertThat(fires("0 0 0 L-2 * *", UTC, "2025-02-01T00:00:00Z", 1))
        .containsExactly("2025-02-26T00:00:00Z");
  }

  @Test
  void nearestWeekdayStaysInsideTheMonth() {
    // 2025-03-01 is a Saturday: 1W is Monday the 3rd, not February 28.
    assertThat(fires("0 0 0 1W * *", UTC, "2025-02-15T00:00:00Z", 1))
        .containsExactly("2025-03-03T00:00:00Z");
    // 2025-06-15 is a Sunday: 15W is Monday the 16th.
    assertThat(fires("0 0 0 15W * *", UTC, "2025-06-01T00:00:00Z", 1))
        .containsExactly("2025-06-16T00:00:00Z");
    // 2025-08-31 is a Sunday: LW is Friday the 29th.
    assertThat(fires("0 0 0 LW * *", UTC, "2025-08-01T00:00:00Z", 1))
        .containsExactly("2025-08-29T00:00:00Z");
  }

  @Test
  void nthAndLastWeekdayOfTheMonth() {
    assertThat(fires("0 0 0 ? * FRI#2", UTC, "2025-06-01T00:00:00Z", 2))
        .containsExactly("2025-06-13T00:00:00Z", "2025-07-11T00:00:00Z");
    assertThat(fires("0 0 0 ? * 5L", UTC, "2025-06-01T00:00:00Z", 2))
        .containsExactly("2025-06-27T00:00:00Z", "2025-07-25T00:00:00Z");
  }

  @Test
  void evaluatesInTheJobsZone() {
    assertThat(fires("0 0 9 * * *", ZoneId.of("Asia/Kolkata"), "2025-06-01T00:00:00Z", 1))
        .containsExactly("2025-06-01T03:30:00Z");
  }

  // --- daylight saving time -------------------------------------------------------------------

  @Test
  void springForwardGapFiresOnceAtTheEndOfTheGapInNewYork() {
    // 2025-03-09 02:00 EST -> 03:00 EDT: 02:30 does not exist and fires at 03:00 EDT (07:00Z).
    assertThat(fires("0 30 2 * * *", NEW_YORK, "2025-03-08T12:00:00Z", 3))
        .containsExactly(
            "2025-03-09T07:00:00Z", // 03:00 EDT, end of the gap
            "2025-03-10T06:30:00Z", // 02:30 EDT
            "2025-03-11T06:30:00Z");
  }

  @Test
  void springForwardGapFiresOnceAtTheEndOfTheGapInBerlin() {
    // 2025-03-30 02:00 CET -> 03:00 CEST. Every 15 minutes: 02:00-02:45 collapse into one fire.
    assertThat(fires("0 */15 * * * *", BERLIN, "2025-03-30T00:30:00Z", 4))
        .containsExactly(
            "2025-03-30T00:45:00Z", // 01:45 CET
            "2025-03-30T01:00:00Z", // 03:00 CEST: the gap's fires and 03:00 itself, once
            "2025-03-30T01:15:00Z", // 03:15 CEST
            "2025-03-30T01:30:00Z");
  }

  @Test
  void fallBackOverlapFiresOnceAtTheFirstOccurrenceInNewYork() {
    // 2025-11-02 02:00 EDT -> 01:00 EST: 01:30 happens twice; fires at 01:30 EDT (05:30Z) only.
    assertThat(fires("0 30 1 * * *", NEW_YORK, "2025-11-01T12:00:00Z", 2))
        .containsExactly("2025-11-02T05:30:00Z", "2025-11-03T06:30:00Z");
  }

  @Test
  void fallBackOverlapDoesNotRepeatStepsInBerlin() {
    // 2025-10-26 03:00 CEST -> 02:00 CET. Every 30 minutes: 02:00 and 02:30 fire in CEST only.
    assertThat(fires("0 0/30 * * * *", BERLIN, "2025-10-25T23:15:00Z", 5))
        .containsExactly(
            "2025-10-25T23:30:00Z", // 01:30 CEST
            "2025-10-26T00:00:00Z", // 02:00 CEST
            "2025-10-26T00:30:00Z", // 02:30 CEST
            "2025-10-26T02:00:00Z", // 03:00 CET: 02:00 and 02:30 CET are skipped
            "2025-10-26T02:30:00Z");
  }

  @Test
  void startingInsideTheSecondPassOfAnOverlapSkipsToItsEnd() {
    // 01:10 EST on 2025-11-02 (06:10Z) is the second 01:10; 01:30 already fired as EDT.
    assertThat(fires("0 30 1,3 * * *", NEW_YORK, "2025-11-02T06:10:00Z", 1))
        .containsExactly("2025-11-02T08:30:00Z");
  }

  @Test
  void halfHourDaylightShiftIsHandledLikeAnyOther() {
    // Lord Howe moves 30 minutes: 2025-04-06 02:00 (+11) -> 01:30 (+10:30).
    ZoneId lordHowe = ZoneId.of("Australia/Lord_Howe");
    LocalDateTime firstPass = LocalDateTime.of(2025, 4, 6, 1, 45);
    long expected = firstPass.toEpochSecond(ZoneOffset.ofHours(11)) * 1000;
    CronSchedule s = CronSchedule.parse("0 45 1 * * *", lordHowe);
    long fire = s.nextFireAfter(ms("2025-04-05T12:00:00Z")).getAsLong();
    assertThat(fire).isEqualTo(expected);
    long next = s.nextFireAfter(fire).getAsLong();
    assertThat(next - fire).isEqualTo(24 * 3_600_000L + 30 * 60_000L);
  }

  // --- errors ---------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "* * * * *",
        "* * * * * * *",
        "60 * * * * *",
        "* 60 * * * *",
        "* * 24 * * *",
        "* * * 0 * *",
        "* * * 32 * *",
        "* * * * 13 *",
        "* * * * * 8",
        "*/0 * * * * *",
        "a * * * * *",
        "1,,2 * * * * *",
        "* * * * FOO *",
        "* * * * * FRI#6",
        "? * * * * *",
        "* * * L-31 * *"
      })
  void invalidExpressionsAreRejectedWithTheFieldNamed(String cron) {
    assertThatThrownBy(() -> CronSchedule.parse(cron, UTC))
        .isInstanceOf(InvalidScheduleException.class)
        .hasMessageContaining("cron");
  }

  @Test
  void errorMessageNamesTheFieldAndThePart() {
    assertThatThrownBy(() -> CronSchedule.parse("0 0 25 * * *", UTC))
        .hasMessage("cron '0 0 25 * * *': hour field '25': 25 is outside 0-23");
  }
}
