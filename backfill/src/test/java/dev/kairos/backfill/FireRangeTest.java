package dev.kairos.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FireRangeTest {

  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static Schedule cron(String expression, ZoneId zone) {
    return Schedules.parse(ScheduleType.CRON, expression, zone, CronDialect.KAIROS, 0);
  }

  private static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static List<Long> all(FireRange range) {
    List<Long> fires = new ArrayList<>();
    long cursor = range.start();
    for (OptionalLong next = range.nextAfter(cursor);
        next.isPresent();
        next = range.nextAfter(cursor)) {
      fires.add(next.getAsLong());
      cursor = next.getAsLong();
    }
    return fires;
  }

  @Test
  void bothEndsOfTheRangeAreIncluded() {
    FireRange range =
        new FireRange(
            cron("0 0 * * * ?", ZoneId.of("UTC")),
            at("2026-01-01T00:00:00Z"),
            at("2026-01-01T03:00:00Z"));

    assertThat(all(range))
        .containsExactly(
            at("2026-01-01T00:00:00Z"),
            at("2026-01-01T01:00:00Z"),
            at("2026-01-01T02:00:00Z"),
            at("2026-01-01T03:00:00Z"));
    assertThat(range.count(100)).isEqualTo(4);
  }

  @Test
  void countStopsOneAboveTheCap() {
    FireRange everySecond =
        new FireRange(
            Schedules.parse(ScheduleType.FIXED_RATE, "1000", ZoneId.of("UTC"), 0), 0, 3_600_000);

    assertThat(everySecond.count(10)).isEqualTo(11);
    assertThat(everySecond.count(10_000)).isEqualTo(3_601);
  }

  @Test
  void aDstGapSkipsTheMissingHourAndAnOverlapFiresOnce() {
    // 02:30 every day in Berlin: 2026-03-29 has no 02:30 (clocks jump 02:00 -> 03:00), so it
    // fires once at 03:00 CEST, and 2026-10-25 has 02:30 twice (03:00 -> 02:00) and fires once:
    // what the scanner fired is what the backfill runs.
    FireRange spring =
        new FireRange(
            cron("0 30 2 * * ?", BERLIN), at("2026-03-27T00:00:00Z"), at("2026-03-31T00:00:00Z"));
    FireRange autumn =
        new FireRange(
            cron("0 30 2 * * ?", BERLIN), at("2026-10-24T00:00:00Z"), at("2026-10-26T23:00:00Z"));

    assertThat(all(spring)).hasSize(4).contains(at("2026-03-29T01:00:00Z"));
    assertThat(spring.count(100)).isEqualTo(4);
    assertThat(all(autumn)).hasSize(3).contains(at("2026-10-25T00:30:00Z"));
    assertThat(all(autumn)).doesNotHaveDuplicates().isSorted();
  }

  @Test
  void aRangeWithoutFiresIsEmptyAndFromAfterToIsRefused() {
    FireRange none =
        new FireRange(
            cron("0 0 0 1 1 ?", ZoneId.of("UTC")),
            at("2026-02-01T00:00:00Z"),
            at("2026-03-01T00:00:00Z"));

    assertThat(none.count(10)).isZero();
    assertThatThrownBy(() -> new FireRange(cron("0 0 * * * ?", ZoneId.of("UTC")), 2, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
