package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * One node's wall clock (node-1, under libfaketime: leader or follower, whichever it became) steps
 * 30 s ahead for 15 s, then 30 s behind for 15 s, then back, as a misconfigured NTP or an
 * operator's {@code date -s} would. Nodes fire on cluster time (Redis TIME carried forward by the
 * monotonic clock, docs/design.md "Cluster time"), so no fire may start early, be missed or run
 * twice, and the leadership does not change.
 */
@FakeNodeClocks
class ClockStepDrillIT extends DrillBase {

  private static final Duration STEPPED = Duration.ofSeconds(15);

  @Test
  void steppingANodesClockCostsNoFireAndStartsNothingEarly() throws Exception {
    DrillNode leader = leader(cluster.nodes());
    DrillNode stepped = cluster.node("node-1");
    assertThat(cluster.hasFakeClock(stepped)).isTrue();
    long termBefore = leader.probe().cluster().term();

    assertAnOutageCostsNoFire(
        "clock-step",
        () -> cluster.stepClock(stepped, "+30s"),
        STEPPED,
        () -> {
          cluster.stepClock(stepped, "-30s");
          try {
            letRun(STEPPED);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            cluster.stepClock(stepped, "+0");
          }
        });

    DrillNode after = leader(cluster.nodes());
    long termAfter = after.probe().cluster().term();
    log.info(
        "DRILL clock-step: {} ({}) stepped +30 s for {} s, then -30 s for as long, then back; {}"
            + " leads term {} (term {} before)",
        stepped.name(),
        stepped == leader ? "the leader" : "a follower",
        STEPPED.toSeconds(),
        after.name(),
        termAfter,
        termBefore);
    assertThat(after.name())
        .as("a clock step is no reason to change leaders")
        .isEqualTo(leader.name());
    assertThat(termAfter).isEqualTo(termBefore);
  }
}
