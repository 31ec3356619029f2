package dev.kairos.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.schedule.CronDialect;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobSchedulingTest {

  /** What HMGET of {@link JobScheduling#FIELDS} returns for a stored job. */
  private static Map<String, String> scanRead(JobDefinition job) {
    Map<String, String> read = new HashMap<>(JobHash.toHash(job));
    read.keySet().retainAll(JobScheduling.FIELDS);
    return read;
  }

  @Test
  void readsTheSchedulingFieldsOfAJobAsTheFullDefinitionHasThem() {
    JobDefinition job = JobHashTest.sample();
    JobScheduling scheduling = JobScheduling.fromHash(scanRead(job));
    assertThat(scheduling)
        .isEqualTo(
            new JobScheduling(
                job.id(),
                job.scheduleType(),
                job.scheduleSpec(),
                job.zone(),
                job.cronDialect(),
                job.misfireStrategy(),
                job.misfireThresholdMs(),
                job.enabled(),
                job.scheduleVersion(),
                job.createdMs(),
                job.calendars()));
    long after = 1_700_000_000_000L;
    assertThat(scheduling.schedule().nextFireAfter(after))
        .isEqualTo(job.schedule().nextFireAfter(after));
  }

  @Test
  void aDeletedJobReadsAsNothingAndAnOldHashAsTheDefaultDialect() {
    assertThat(JobScheduling.fromHash(Map.of())).isNull();
    Map<String, String> old = scanRead(JobHashTest.sample());
    old.remove(JobFields.CRON_DIALECT);
    assertThat(JobScheduling.fromHash(old).cronDialect()).isEqualTo(CronDialect.DEFAULT);
  }

  @Test
  void aMissingOrMalformedFieldIsReportedWithJobAndFieldNamed() {
    Map<String, String> read = scanRead(JobHashTest.sample());
    read.put(JobFields.MISFIRE_THRESHOLD_MS, "soon");
    assertThatThrownBy(() -> JobScheduling.fromHash(read))
        .isInstanceOf(KairosException.class)
        .hasMessageContaining("report.daily-1")
        .hasMessageContaining("misfireThresholdMs");
    read.remove(JobFields.SCHEDULE_VERSION);
    read.put(JobFields.MISFIRE_THRESHOLD_MS, "1");
    assertThatThrownBy(() -> JobScheduling.fromHash(read))
        .hasMessageContaining("'scheduleVersion' missing");
  }
}
