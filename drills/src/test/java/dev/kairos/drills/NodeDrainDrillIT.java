package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue #16: a rolling upgrade drains nodes one by one ({@code POST /api/v1/node/drain}). Under the
 * steady per-second load a follower is drained (it stays up, out of the cluster), then the leader,
 * which exits once drained; the last node leads and fires alone. Every fire of the window starts
 * exactly once and none early, and each drained node holds nothing in Redis and is out of the
 * membership. Unlike a kill, a drain hands the wheel over before anything comes due on the leaving
 * node, so its fires are not late by a leader timeout.
 */
class NodeDrainDrillIT extends DrillBase {

  private static final Duration DRAIN_DEADLINE = Duration.ofSeconds(60);

  @Test
  void drainedFollowerThenLeaderHandTheirWheelsOverWithNoFireMissedDuplicatedOrEarly()
      throws Exception {
    long from = System.currentTimeMillis() + 2_000;
    letRun(BEFORE_FAULT);
    DrillNode leader = leader(cluster.nodes());
    long term = leader.probe().cluster().term();
    DrillNode follower = except(leader).get(0);
    DrillNode last = except(leader).get(1);
    assertThat(held(follower.name()).wheel()).as("the follower holds fires before").isNotEmpty();

    long followerAskedAt = System.currentTimeMillis();
    assertThat(follower.probe().drain(false)).isEqualTo("RESIGNING");
    awaitDrained(follower);
    long followerDrainedMs = System.currentTimeMillis() - followerAskedAt;
    assertThat(held(follower.name()).isEmpty()).as("the drained follower holds nothing").isTrue();
    assertThat(follower.process().isAlive()).as("asked not to exit").isTrue();
    Polling.until(
        TAKEOVER_DEADLINE,
        "the leader's membership no longer shows " + follower.name(),
        () -> !leader.probe().members().contains(follower.name()));
    assertThat(leader.probe().cluster().term())
        .as("a follower's drain: no election")
        .isEqualTo(term);

    letRun(Duration.ofSeconds(5));
    long leaderAskedAt = System.currentTimeMillis();
    assertThat(leader.probe().drain(true)).isEqualTo("RESIGNING");
    Polling.until(
        DRAIN_DEADLINE,
        "the drained leader " + leader.name() + " exits",
        () -> !leader.process().isAlive());
    long leaderGoneMs = System.currentTimeMillis() - leaderAskedAt;
    Polling.until(
        TAKEOVER_DEADLINE,
        last.name() + " leads and scans",
        () -> last.probe().cluster().scanning());
    assertThat(last.probe().cluster().term()).as("a new term").isGreaterThan(term);
    assertThat(held(leader.name()).isEmpty()).as("the drained leader holds nothing").isTrue();
    assertThat(last.probe().members()).as("one member left").containsExactly(last.name());

    letRun(AFTER_RECOVERY);
    long to = System.currentTimeMillis();
    StartLedger.Outcome outcome =
        ledger.awaitStarts(jobs, from, to, cluster.executors(), STARTS_STALL, STARTS_CAP);
    report("node-drain", from, followerAskedAt, leaderAskedAt + leaderGoneMs, to, outcome);
    log.info(
        "DRILL node-drain: follower {} drained in {} ms; leader {} drained and exited in {} ms"
            + " ({} leads term {}); lateness while draining {}; window {}",
        follower.name(),
        followerDrainedMs,
        leader.name(),
        leaderGoneMs,
        last.name(),
        last.probe().cluster().term(),
        outcome.latenessOf(jobs.expectedTriggerIds(followerAskedAt, leaderAskedAt + leaderGoneMs)),
        outcome.summary());
    logDispatchLateness("node-drain", from, to);

    assertNoneMissed(outcome.missed(), "expected fires with no start");
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
    assertThat(outcome.claimedNotLogged()).as("start claims whose handler never ran").isEmpty();
    assertThat(outcome.early()).as("fires started before their time").isEmpty();
  }

  private static void awaitDrained(DrillNode node) {
    Polling.until(
        DRAIN_DEADLINE,
        node.name() + " reports DRAINED",
        () -> {
          String phase = node.probe().drainStatus().path("phase").asText();
          if (phase.equals("FAILED")) {
            throw new AssertionError(node.name() + " drain failed: " + node.probe().drainStatus());
          }
          return phase.equals("DRAINED");
        });
  }
}
