package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.schedule.CronSchedule;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadTest {

  @Test
  void w2ImportsInChunksOfTheBatchLimit() {
    List<List<Integer>> calls = Workload.W2.imports(2_500, 1_000);
    assertThat(calls).extracting(List::size).containsExactly(1_000, 1_000, 500);
    assertThat(calls.get(2).get(0)).isEqualTo(2_000);
  }

  @Test
  void w1SpreadsJobsOverOneHundredBandsOfTheSecond() {
    List<List<Integer>> calls = Workload.W1.imports(5_000, 1_000);
    assertThat(calls).hasSize(100).allSatisfy(c -> assertThat(c).hasSize(50));
    assertThat(Workload.bandOf(calls.get(37).get(0), 5_000)).isEqualTo(37);
  }

  @Test
  void w1WithFewerJobsThanBandsSkipsEmptyBands() {
    List<List<Integer>> calls = Workload.W1.imports(40, 1_000);
    assertThat(calls).hasSize(40).allSatisfy(c -> assertThat(c).hasSize(1));
    assertThat(Workload.bandOf(39, 40)).isEqualTo(97);
  }

  @Test
  void expectedFiresComeFromTheSchedule() {
    // FIXED_RATE 1 s anchored at 10_250: fires at 11_250, 12_250, ... (the anchor itself too).
    assertThat(Workload.fireTimes(Workload.W1.schedule(10_250), 11_000, 14_000))
        .containsExactly(11_250L, 12_250L, 13_250L);
    // Cron every second: every whole second of [from, to), to excluded.
    assertThat(Workload.fireTimes(Workload.W2.schedule(0), 11_000, 14_000))
        .containsExactly(11_000L, 12_000L, 13_000L);
  }

  @Test
  void m1FiresAtEveryWholeMinuteAndImportsInChunks() {
    assertThat(Workload.M1.job("j", "app"))
        .containsEntry("scheduleType", "CRON")
        .containsEntry("schedule", "0 * * * * *");
    assertThat(Workload.fireTimes(Workload.M1.schedule(0), 30_000, 210_000))
        .containsExactly(60_000L, 120_000L, 180_000L);
    assertThat(Workload.M1.imports(1_500, 1_000))
        .extracting(List::size)
        .containsExactly(1_000, 500);
  }

  @Test
  void midnightJobsAreOneShotsAtTheirDueInstant() {
    assertThat(Workload.oneShotJob("j", "app", 1_795_651_200_000L))
        .containsEntry("scheduleType", "ONE_SHOT")
        .containsEntry("schedule", "1795651200000")
        .containsEntry("routing", "CONSISTENT_HASH")
        .doesNotContainKeys("misfire", "misfireThresholdMs");
    assertThat(Workload.MIDNIGHT.expectedFires(java.util.Map.of("j", 5_000L), 5_000, 5_001))
        .containsExactly("j:5000");
    assertThat(Workload.MIDNIGHT.expectedFires(java.util.Map.of("j", 5_000L), 5_001, 9_000))
        .isEmpty();
    assertThat(Workload.MIDNIGHT.recurring()).isFalse();
    assertThat(Workload.W2.recurring()).isTrue();
  }

  @Test
  void jobsUseTheApiDefaultsForMisfire() {
    assertThat(Workload.W1.job("j", "app"))
        .containsEntry("scheduleType", "FIXED_RATE")
        .containsEntry("schedule", "1000")
        .containsEntry("routing", "CONSISTENT_HASH")
        .doesNotContainKeys("misfire", "misfireThresholdMs");
    assertThat(Workload.W2.job("j", "app")).containsEntry("schedule", "* * * * * *");
  }

  @Test
  void parkedJobsAreCreatedDisabledAndFireOnceAYear() {
    assertThat(Workload.parkedJob("w", "app"))
        .containsEntry("enabled", false)
        .containsEntry("scheduleType", "CRON")
        .containsEntry("schedule", "0 0 0 1 1 *");
    // Its next fire after any instant of a day in November is the next 1 January, 00:00 UTC.
    long nov26 = 1_795_651_200_000L; // 2026-11-26T00:00:00Z
    assertThat(CronSchedule.parse("0 0 0 1 1 *", ZoneOffset.UTC).nextFireAfter(nov26))
        .hasValue(1_798_761_600_000L); // 2027-01-01T00:00:00Z
  }
}
