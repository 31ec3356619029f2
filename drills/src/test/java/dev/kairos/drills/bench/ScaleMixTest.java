package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.schedule.CronSchedule;
import dev.kairos.core.schedule.FixedRateSchedule;
import dev.kairos.core.schedule.Schedule;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleMixTest {

  private static final long LEVEL_START = 1_790_000_123_456L;
  private final ScaleMix mix = new ScaleMix(33);

  @Test
  void everyHundredJobsHoldTheMixExactly() {
    for (long block : new long[] {0, 9_900, 999_900}) {
      Map<ScaleMix.Kind, Integer> counts = new EnumMap<>(ScaleMix.Kind.class);
      for (long i = block; i < block + 100; i++) {
        counts.merge(ScaleMix.kind(i), 1, Integer::sum);
      }
      assertThat(counts)
          .containsEntry(ScaleMix.Kind.HOURLY, 79)
          .containsEntry(ScaleMix.Kind.DAILY, 15)
          .containsEntry(ScaleMix.Kind.MINUTE, 1)
          .containsEntry(ScaleMix.Kind.FIXED_RATE, 3)
          .containsEntry(ScaleMix.Kind.ONE_SHOT, 2);
    }
  }

  @Test
  void idsSortAsIndexesAndParseBack() {
    assertThat(ScaleMix.id(42)).isEqualTo("scale-0000042");
    assertThat(ScaleMix.id(999_999).compareTo(ScaleMix.id(1_000_000))).isNegative();
    assertThat(ScaleMix.index(ScaleMix.id(123_456))).isEqualTo(123_456);
  }

  @Test
  void aJobIsTheSameEveryTimeItIsMade() {
    assertThat(mix.spec(4711, LEVEL_START)).isEqualTo(mix.spec(4711, LEVEL_START));
    assertThat(new ScaleMix(34).spec(4721, LEVEL_START).schedule())
        .isNotEqualTo(mix.spec(4721, LEVEL_START).schedule());
  }

  @Test
  void computedCronFiresAreTheSchedulersOwn() {
    long from = LEVEL_START;
    long to = from + 2 * 86_400_000L + 123;
    for (long i = 0; i < 300; i++) {
      ScaleMix.Spec spec = mix.spec(i, LEVEL_START);
      if (!spec.scheduleType().equals("CRON")) {
        continue;
      }
      Schedule schedule = CronSchedule.parse(spec.schedule(), ZoneOffset.UTC);
      assertThat(fires(i, 0, from, to))
          .as("job %d, %s", i, spec.schedule())
          .isEqualTo(Workload.fireTimes(schedule, from, to));
    }
  }

  @Test
  void fixedRateFiresFromAPeriodAfterItsCreation() {
    long i = 1; // FIXED_RATE
    assertThat(ScaleMix.kind(i)).isEqualTo(ScaleMix.Kind.FIXED_RATE);
    long created = LEVEL_START + 777;
    Schedule schedule = new FixedRateSchedule(ScaleMix.FIXED_RATE_MS, created);
    long to = created + 3_600_000;
    // The store's first fire is nextFireAfter(creation): a period later.
    List<Long> expected = Workload.fireTimes(schedule, created + 1, to);
    assertThat(fires(i, created, created - 5_000, to)).isEqualTo(expected);
    assertThat(expected.get(0)).isEqualTo(created + ScaleMix.FIXED_RATE_MS);
  }

  @Test
  void oneShotsFallInTheDayAfterAMinutePastTheLevelStart() {
    for (long i = 4; i < 100_000; i += 100) {
      assertThat(ScaleMix.kind(i)).isEqualTo(ScaleMix.Kind.ONE_SHOT);
      long due = Long.parseLong(mix.spec(i, LEVEL_START).schedule());
      assertThat(due)
          .isBetween(
              LEVEL_START + ScaleMix.ONE_SHOT_AFTER_MS,
              LEVEL_START + ScaleMix.ONE_SHOT_AFTER_MS + ScaleMix.ONE_SHOT_SPAN_MS);
      assertThat(fires(i, 0, due, due + 1)).containsExactly(due);
      assertThat(fires(i, 0, due + 1, due + 86_400_000L)).isEmpty();
    }
  }

  @Test
  void theMinuteSliceFiresOnEveryWholeMinute() {
    assertThat(mix.spec(0, LEVEL_START).schedule()).isEqualTo("0 * * * * *");
    assertThat(fires(200, 0, 120_000, 300_001))
        .containsExactly(120_000L, 180_000L, 240_000L, 300_000L);
  }

  @Test
  void periodicCoversTheHalfOpenRange() {
    List<Long> out = new ArrayList<>();
    ScaleMix.periodic(10, 3, 3, 33, out::add);
    assertThat(out).containsExactly(3L, 13L, 23L);
    out.clear();
    ScaleMix.periodic(10, 3, -20, 4, out::add);
    assertThat(out).containsExactly(-17L, -7L, 3L);
  }

  @Test
  void theImportCarriesTheRecorderHandlerAndAnOwner() {
    Map<String, Object> job = mix.spec(21, LEVEL_START).importJob("app-x");
    assertThat(job)
        .containsEntry("id", "scale-0000021")
        .containsEntry("app", "app-x")
        .containsEntry("handler", "drillRecord")
        .containsEntry("routing", "CONSISTENT_HASH")
        .containsEntry("owner", "team-21")
        .containsEntry("scheduleType", "CRON");
  }

  private List<Long> fires(long i, long anchor, long from, long to) {
    List<Long> out = new ArrayList<>();
    mix.fires(i, LEVEL_START, anchor, from, to, out::add);
    return out;
  }
}
