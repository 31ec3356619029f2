package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** docs/design.md "Correctness, measured": kill -9 the leader. */
class LeaderKillDrillIT extends DrillBase {

  @Test
  void killedLeaderIsReplacedWithNoMissedAndNoDuplicateStart() throws Exception {
    long from = System.currentTimeMillis() + 2_000;
    letRun(BEFORE_FAULT);
    DrillNode old = leader(cluster.nodes());
    long oldTerm = old.probe().cluster().term();

    long killedAt = System.currentTimeMillis();
    old.process().kill();
    DrillNode next = leader(except(old));
    NodeProbe.ClusterView view = next.probe().cluster();
    long takeoverMs = view.firstScanMs() - killedAt;

    letRun(AFTER_RECOVERY);
    long to = System.currentTimeMillis();
    StartLedger.Outcome outcome =
        ledger.awaitStarts(jobs, from, to, cluster.executors(), STARTS_STALL, STARTS_CAP);
    report("leader-kill", from, killedAt, killedAt, to, outcome);
    Lateness aroundKill =
        outcome.latenessOf(jobs.expectedTriggerIds(killedAt, killedAt + takeoverMs + 2_000));
    log.info(
        "DRILL leader-kill: killed {} (term {}); {} leads term {}; kill -> first scan {} ms;"
            + " window {}; fires due within the takeover {}",
        old.name(),
        oldTerm,
        next.name(),
        view.term(),
        takeoverMs,
        outcome.summary(),
        aroundKill);
    logDispatchLateness("leader-kill", from, to);

    assertThat(view.term()).as("the new leader's term").isGreaterThan(oldTerm);
    assertNoneMissed(outcome.missed(), "expected fires with no start");
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
    assertThat(outcome.early()).as("fires started before their time").isEmpty();
    assertThat(outcome.claimedNotLogged())
        .as("start claims without a handler start: no executor was killed")
        .isEmpty();
  }
}
