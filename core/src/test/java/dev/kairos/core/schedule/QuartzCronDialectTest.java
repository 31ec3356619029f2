package dev.kairos.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuartzCronDialectTest {

  private static long next(String cron, CronDialect dialect, String after) {
    return CronSchedule.parse(cron, ZoneOffset.UTC, dialect)
        .nextFireAfter(Instant.parse(after).toEpochMilli())
        .orElseThrow();
  }

  @Test
  void dayOfWeekOneIsSundayInQuartzAndMondayInKairos() {
    // 2025-06-01 is a Sunday.
    assertThat(
            Instant.ofEpochMilli(next("0 0 9 ? * 1", CronDialect.QUARTZ, "2025-05-28T00:00:00Z")))
        .isEqualTo(Instant.parse("2025-06-01T09:00:00Z"));
    assertThat(
            Instant.ofEpochMilli(next("0 0 9 * * 1", CronDialect.KAIROS, "2025-05-28T00:00:00Z")))
        .isEqualTo(Instant.parse("2025-06-02T09:00:00Z"));
  }

  @Test
  void yearFieldLimitsTheFiresAndEndsThem() {
    CronSchedule s =
        CronSchedule.parse("0 0 0 1 1 ? 2030,2032", ZoneOffset.UTC, CronDialect.QUARTZ);
    long first =
        s.nextFireAfter(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli()).orElseThrow();
    assertThat(Instant.ofEpochMilli(first)).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    long second = s.nextFireAfter(first).orElseThrow();
    assertThat(Instant.ofEpochMilli(second)).isEqualTo(Instant.parse("2032-01-01T00:00:00Z"));
    assertThat(s.nextFireAfter(second)).isEmpty();
  }

  @Test
  void loneLInDayOfWeekIsSaturday() {
    // 2025-06-07 is a Saturday.
    assertThat(
            Instant.ofEpochMilli(next("0 0 0 ? * L", CronDialect.QUARTZ, "2025-06-02T00:00:00Z")))
        .isEqualTo(Instant.parse("2025-06-07T00:00:00Z"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0 0 12 * * 2|both set",
        "0 0 12 ? * ?|both '?'",
        "0 0 12 ? * 0|day-of-week field '0': 0 is outside 1-7",
        "0 0 12 ? JAN/2 *|Quartz reads a name only alone",
        "0 0 12 ? * 2L,3|must be alone",
        "0 0 12 ? * 2#6|day-of-week field '2#6': 6 is outside 1-5",
        "0 0 12 1 * ? 2031-2030|runs backwards",
        "0 0 12 1 * ? 1969|1969 is outside 1970-2199",
        "0 0 12 1 *|expects 6 or 7",
        "0 0 12 1,? * ?|'?' must be the whole field"
      })
  void quartzDialectRefusesWithTheFieldNamed(String cron, String problem) {
    assertThatThrownBy(() -> CronSchedule.parse(cron, ZoneOffset.UTC, CronDialect.QUARTZ))
        .isInstanceOf(InvalidScheduleException.class)
        .hasMessageContaining(problem);
  }

  @Test
  void kairosDialectStillOrsBothDayFieldsAndRefusesAYear() {
    assertThat(CronSchedule.parse("0 0 12 1 * 2", ZoneOffset.UTC)).isNotNull();
    assertThatThrownBy(() -> CronSchedule.parse("0 0 12 1 * ? 2030", ZoneOffset.UTC))
        .isInstanceOf(InvalidScheduleException.class)
        .hasMessageContaining("expected 6");
  }

  @Test
  void dialectIsPartOfTheScheduleIdentity() {
    assertThat(CronSchedule.parse("0 0 12 ? * 2", ZoneOffset.UTC, CronDialect.QUARTZ))
        .isNotEqualTo(CronSchedule.parse("0 0 12 ? * 2", ZoneOffset.UTC, CronDialect.KAIROS));
  }
}
