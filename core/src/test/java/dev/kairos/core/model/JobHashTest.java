package dev.kairos.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.schedule.CronDialect;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobHashTest {

  static JobDefinition sample() {
    return JobDefinition.builder("report.daily-1")
        .app("billing")
        .handler("dailyReport")
        .cron("0 30 2 * * MON-FRI")
        .zone("Europe/Berlin")
        .params("{\"dryRun\":true,\"note\":\"a:b|c\"}")
        .routing(RoutingStrategy.SHARDING_BROADCAST)
        .block(BlockStrategy.COVER_EARLY)
        .timeoutMs(30_000)
        .retryCount(3)
        .retryBackoff(RetryBackoff.exponential(1_000, 60_000, 0.25))
        .misfire(MisfireStrategy.FIRE_ONCE_NOW, 10_000)
        .enabled(false)
        .scheduleVersion(4)
        .version(9)
        .createdMs(1_700_000_000_000L)
        .updatedMs(1_700_000_100_000L)
        .childJobIds(java.util.List.of("invoice.send", "audit-log"))
        .description("Daily report.\nSecond line, with a comma.")
        .owner("billing-team")
        .alarmEmails(java.util.List.of("owner@example.com", "team@example.org"))
        .alarmWebhooks(java.util.List.of("https://hooks.example.com/a?tags=x,y", "http://h/b"))
        .calendars(java.util.List.of("holidays", "weekends"))
        .build();
  }

  @Test
  void roundTripsEveryField() {
    JobDefinition job = sample();
    assertThat(JobHash.fromHash(JobHash.toHash(job))).isEqualTo(job);
  }

  @Test
  void writesEveryValueAsReadableText() {
    Map<String, String> hash = JobHash.toHash(sample());
    assertThat(hash)
        .containsEntry(JobFields.ENABLED, "false")
        .containsEntry(JobFields.SCHEDULE_TYPE, "CRON")
        .containsEntry(JobFields.RETRY_BACKOFF, "EXPONENTIAL:1000:60000:0.25")
        .containsEntry(JobFields.SCHEDULE_VERSION, "4")
        .containsEntry(JobFields.CHILD_JOB_IDS, "invoice.send,audit-log")
        .doesNotContainKey(JobFields.NEXT_FIRE_MS);
  }

  @Test
  void aHashWrittenBeforeCronDialectsReadsAsTheKairosDialect() {
    Map<String, String> hash =
        JobHash.toHash(sample().toBuilder().cronDialect(CronDialect.QUARTZ).build());
    assertThat(JobHash.fromHash(hash).cronDialect()).isEqualTo(CronDialect.QUARTZ);
    hash.remove(JobFields.CRON_DIALECT);
    assertThat(JobHash.fromHash(hash).cronDialect()).isEqualTo(CronDialect.KAIROS);
  }

  @Test
  void aHashWrittenBeforeJobFeaturesReadsAsNoDescriptionOwnerOrRecipients() {
    Map<String, String> hash = JobHash.toHash(sample());
    assertThat(hash)
        .containsEntry(
            JobFields.ALARM_WEBHOOKS, "https://hooks.example.com/a?tags=x,y\nhttp://h/b");
    hash.remove(JobFields.DESCRIPTION);
    hash.remove(JobFields.OWNER);
    hash.remove(JobFields.ALARM_EMAILS);
    hash.remove(JobFields.ALARM_WEBHOOKS);
    JobDefinition old = JobHash.fromHash(hash);
    assertThat(old.description()).isEmpty();
    assertThat(old.owner()).isEmpty();
    assertThat(old.alarmEmails()).isEmpty();
    assertThat(old.alarmWebhooks()).isEmpty();
  }

  @Test
  void ignoresRuntimeAndUnknownFields() {
    Map<String, String> hash = new HashMap<>(JobHash.toHash(sample()));
    hash.put(JobFields.NEXT_FIRE_MS, "123");
    hash.put("someFutureField", "x");
    assertThat(JobHash.fromHash(hash)).isEqualTo(sample());
  }

  @Test
  void corruptFieldIsReportedWithJobAndFieldNamed() {
    Map<String, String> hash = new HashMap<>(JobHash.toHash(sample()));
    hash.put(JobFields.TIMEOUT_MS, "soon");
    assertThatThrownBy(() -> JobHash.fromHash(hash))
        .isInstanceOf(KairosException.class)
        .hasMessageContaining("report.daily-1")
        .hasMessageContaining("timeoutMs");
    hash.remove(JobFields.APP);
    assertThatThrownBy(() -> JobHash.fromHash(hash)).hasMessageContaining("'app' missing");
  }
}
