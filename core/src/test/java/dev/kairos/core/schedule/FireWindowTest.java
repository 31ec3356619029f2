package dev.kairos.core.schedule;

import static dev.kairos.core.model.MisfireStrategy.DO_NOTHING;
import static dev.kairos.core.model.MisfireStrategy.FIRE_ONCE_NOW;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class FireWindowTest {

  private static final long THRESHOLD = 5_000;
  private static final long NOW = 1_000_000;
  private static final long HORIZON = NOW + 5_000;

  private final FireWindow window = new FireWindow();

  @Test
  void jobDueAfterTheHorizonIsLeftAlone() {
    FirePlan plan =
        window.plan(
            new FixedRateSchedule(1_000, 0), DO_NOTHING, THRESHOLD, HORIZON + 1, NOW, HORIZON);
    assertThat(plan.fireTimes()).isEmpty();
    assertThat(plan.next()).isEqualTo(NextDue.at(HORIZON + 1));
  }

  @Test
  void fastJobGetsEveryFireUpToAndIncludingTheHorizon() {
    FirePlan plan =
        window.plan(new FixedRateSchedule(100, 0), DO_NOTHING, THRESHOLD, NOW, NOW, HORIZON);
    assertThat(plan.fireTimes()).hasSize(51).startsWith(NOW, NOW + 100).endsWith(HORIZON);
    assertThat(plan.next()).isEqualTo(NextDue.at(HORIZON + 100));
    assertThat(plan.misfired()).isFalse();
  }

  @Test
  void lateFireWithinTheThresholdIsStillClaimed() {
    long due = NOW - THRESHOLD; // exactly at the threshold: not a misfire
    FirePlan plan =
        window.plan(new FixedRateSchedule(60_000, 0), DO_NOTHING, THRESHOLD, due, NOW, HORIZON);
    assertThat(plan.fireTimes()).containsExactly(due);
    assertThat(plan.misfired()).isFalse();
  }

  @Test
  void doNothingSkipsMissedFiresAndContinuesAfterNow() {
    long due = NOW - THRESHOLD - 1;
    FirePlan plan =
        window.plan(new FixedRateSchedule(2_000, 0), DO_NOTHING, THRESHOLD, due, NOW, HORIZON);
    assertThat(plan.misfired()).isTrue();
    assertThat(plan.fireTimes()).containsExactly(NOW + 2_000, NOW + 4_000);
    assertThat(plan.next()).isEqualTo(NextDue.at(NOW + 6_000));
  }

  @Test
  void fireOnceNowClaimsOneFireAtNowThenContinues() {
    long due = NOW - 60_000;
    FirePlan plan =
        window.plan(new FixedRateSchedule(2_000, 0), FIRE_ONCE_NOW, THRESHOLD, due, NOW, HORIZON);
    assertThat(plan.fireTimes()).containsExactly(NOW, NOW + 2_000, NOW + 4_000);
    assertThat(plan.triggerIds("job-1").get(0)).isEqualTo(TriggerId.scheduled("job-1", NOW));
    assertThat(plan.next()).isEqualTo(NextDue.at(NOW + 6_000));
  }

  @Test
  void capLeavesTheFirstUnclaimedFireAsTheNewScoreSoNothingIsLost() {
    FireWindow small = new FireWindow(3);
    Schedule everyMs = new FixedRateSchedule(1, 0);
    List<Long> claimed = new ArrayList<>();
    long due = NOW;
    // Scan repeatedly with the same clock: every fire up to the horizon is claimed exactly once.
    for (int scan = 0; scan < 10_000; scan++) {
      FirePlan plan = small.plan(everyMs, DO_NOTHING, THRESHOLD, due, NOW, NOW + 10);
      claimed.addAll(plan.fireTimes());
      due = plan.next().atMs();
      if (!plan.capped()) {
        break;
      }
      assertThat(plan.fireTimes()).hasSize(3);
    }
    assertThat(claimed).isEqualTo(LongStream.rangeClosed(NOW, NOW + 10).boxed().toList());
    assertThat(due).isEqualTo(NOW + 11);
  }

  @Test
  void oneShotIsRemovedAfterItsFire() {
    FirePlan plan =
        window.plan(
            new OneShotSchedule(NOW + 1_000), DO_NOTHING, THRESHOLD, NOW + 1_000, NOW, HORIZON);
    assertThat(plan.fireTimes()).containsExactly(NOW + 1_000);
    assertThat(plan.next()).isEqualTo(NextDue.REMOVE);
  }

  @Test
  void misfiredOneShotWithDoNothingIsRemovedWithoutFiring() {
    long at = NOW - 60_000;
    FirePlan plan = window.plan(new OneShotSchedule(at), DO_NOTHING, THRESHOLD, at, NOW, HORIZON);
    assertThat(plan.fireTimes()).isEmpty();
    assertThat(plan.next()).isEqualTo(NextDue.REMOVE);
    assertThat(plan.misfired()).isTrue();
  }

  @Test
  void misfiredOneShotWithFireOnceNowFiresNowAndIsRemoved() {
    long at = NOW - 60_000;
    FirePlan plan =
        window.plan(new OneShotSchedule(at), FIRE_ONCE_NOW, THRESHOLD, at, NOW, HORIZON);
    assertThat(plan.fireTimes()).containsExactly(NOW);
    assertThat(plan.next()).isEqualTo(NextDue.REMOVE);
  }

  @Test
  void fixedDelayClaimsOneFireAndParks() {
    FirePlan plan =
        window.plan(new FixedDelaySchedule(100), DO_NOTHING, THRESHOLD, NOW + 10, NOW, HORIZON);
    assertThat(plan.fireTimes()).containsExactly(NOW + 10);
    assertThat(plan.next()).isEqualTo(NextDue.PARK);
    assertThat(plan.next().score()).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void misfiredFixedDelayWithDoNothingRestartsOneIntervalAfterNow() {
    FirePlan far =
        window.plan(new FixedDelaySchedule(60_000), DO_NOTHING, THRESHOLD, 0, NOW, HORIZON);
    assertThat(far.fireTimes()).isEmpty();
    assertThat(far.next()).isEqualTo(NextDue.at(NOW + 60_000));

    FirePlan near =
        window.plan(new FixedDelaySchedule(1_000), DO_NOTHING, THRESHOLD, 0, NOW, HORIZON);
    assertThat(near.fireTimes()).containsExactly(NOW + 1_000);
    assertThat(near.next()).isEqualTo(NextDue.PARK);
  }

  @Test
  void misfiredFixedDelayWithFireOnceNowFiresNowAndParks() {
    FirePlan plan =
        window.plan(new FixedDelaySchedule(1_000), FIRE_ONCE_NOW, THRESHOLD, 0, NOW, HORIZON);
    assertThat(plan.fireTimes()).containsExactly(NOW);
    assertThat(plan.next()).isEqualTo(NextDue.PARK);
  }

  @Test
  void yearlyCronMovesToItsNextYear() {
    long newYear2025 = 1_735_689_600_000L;
    CronSchedule once = CronSchedule.parse("0 0 0 1 1 ? ", ZoneOffset.UTC);
    FirePlan plan = window.plan(once, DO_NOTHING, THRESHOLD, newYear2025, newYear2025, newYear2025);
    assertThat(plan.fireTimes()).containsExactly(newYear2025);
    assertThat(plan.next()).isEqualTo(NextDue.at(newYear2025 + 365 * 86_400_000L));
  }

  @Test
  void apiJobFoundInTheDueSetIsRemoved() {
    FirePlan plan = window.plan(ApiSchedule.INSTANCE, DO_NOTHING, THRESHOLD, NOW, NOW, HORIZON);
    assertThat(plan.fireTimes()).isEmpty();
    assertThat(plan.next()).isEqualTo(NextDue.REMOVE);
  }

  @Test
  void usesTheJobsMisfireSettings() {
    JobDefinition job =
        JobDefinition.builder("j")
            .app("a")
            .handler("h")
            .fixedRate(2_000)
            .misfire(FIRE_ONCE_NOW, 60_000)
            .build();
    // 10 s late is inside this job's 60 s threshold: claimed as scheduled, not "now".
    FirePlan plan = window.plan(job, job.schedule(), NOW - 10_000, NOW, HORIZON);
    assertThat(plan.misfired()).isFalse();
    assertThat(plan.fireTimes()).first().isEqualTo(NOW - 10_000);
  }
}
