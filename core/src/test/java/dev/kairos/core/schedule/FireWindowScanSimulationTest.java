package dev.kairos.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.MisfireStrategy;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Drives FireWindow the way the leader's scanner does (repeated scans, the job's score carried from
 * one scan to the next, a small per-call cap, irregular scan intervals within the misfire
 * threshold) and checks that every fire of the schedule is claimed exactly once, in order.
 */
class FireWindowScanSimulationTest {

  private static final long THRESHOLD = 5_000;
  private static final long PRE_READ = 5_000;

  @Test
  void repeatedScansClaimEveryFireExactlyOnce() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    long start = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    for (int round = 0; round < 200; round++) {
      Schedule schedule = randomSchedule(random, start);
      FireWindow window = new FireWindow(1 + random.nextInt(5));
      String context = "seed " + seed + ", round " + round + ", " + schedule;

      long now = start;
      OptionalLong first = schedule.nextFireAfter(now);
      long due = first.orElseThrow();
      List<Long> claimed = new ArrayList<>();
      long end = start + 120_000;
      boolean removed = false;
      long lastHorizon = Long.MIN_VALUE;
      while (now < end && !removed) {
        lastHorizon = now + PRE_READ;
        FirePlan plan =
            window.plan(schedule, MisfireStrategy.DO_NOTHING, THRESHOLD, due, now, lastHorizon);
        assertThat(plan.misfired()).as(context).isFalse();
        claimed.addAll(plan.fireTimes());
        switch (plan.next().kind()) {
          case AT -> due = plan.next().atMs();
          case REMOVE -> removed = true;
          case PARK -> throw new AssertionError("only fixed delay parks: " + context);
        }
        if (!plan.capped()) {
          now += 1 + random.nextInt((int) THRESHOLD); // the next scan, never late enough to misfire
        }
      }
      List<Long> expected = new ArrayList<>();
      for (OptionalLong f = first;
          f.isPresent() && f.getAsLong() <= lastHorizon;
          f = schedule.nextFireAfter(f.getAsLong())) {
        expected.add(f.getAsLong());
      }
      assertThat(claimed).as(context).isEqualTo(expected);
      assertThat(claimed).as(context).doesNotHaveDuplicates();
    }
  }

  private static Schedule randomSchedule(Random random, long start) {
    return switch (random.nextInt(3)) {
      case 0 -> new FixedRateSchedule(1 + random.nextInt(3_000), start - random.nextInt(10_000));
      case 1 ->
          CronSchedule.parse(
              "*/" + (1 + random.nextInt(7)) + " * * * * *", ZoneId.of("Europe/Berlin"));
      default -> new OneShotSchedule(start + 1 + random.nextInt(60_000));
    };
  }
}
