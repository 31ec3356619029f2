package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The RocketMQ broker, which carries every trigger to its executor, shuts down for 10 s (store
 * flushed, unregistered from the NameServer, ports closed) and starts again on the same port and
 * store, while 300 jobs fire every second (issue #14: a 23 s broker outage started fires up to 44 s
 * late). Meanwhile the nodes' sends fail and the triggers stay in their inflight sets, to be sent
 * again; the executors cannot pull or commit. Afterwards every fire of the window starts, none
 * twice, none claimed and left unrun.
 */
class BrokerRestartDrillIT extends DrillBase {

  private static final Duration DOWN = Duration.ofSeconds(10);

  @Test
  void aBrokerRestartCostsNoFire() throws Exception {
    long from = System.currentTimeMillis() + 2_000;
    letRun(Duration.ofSeconds(6));
    long stoppedAt = System.currentTimeMillis();
    infra.rocketMq().stopBroker();
    try {
      letRun(DOWN);
    } finally {
      infra.rocketMq().startBroker(); // shared by every drill of this JVM
    }
    long restartedAt = System.currentTimeMillis();
    letRun(Duration.ofSeconds(10));
    long to = System.currentTimeMillis();

    StartLedger.Outcome outcome =
        ledger.awaitStarts(jobs, from, to, cluster.executors(), STARTS_STALL, STARTS_CAP);
    log.info(
        "DRILL broker-restart: broker down {} ms; lateness before {} during and after {}; window {}",
        restartedAt - stoppedAt,
        outcome.latenessOf(jobs.expectedTriggerIds(from, stoppedAt)),
        outcome.latenessOf(jobs.expectedTriggerIds(stoppedAt, to)),
        outcome.summary());
    logDispatchLateness("broker-restart", from, to);

    assertNoneMissed(outcome.missed(), "expected fires with no start");
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
    assertThat(outcome.claimedNotLogged()).as("start claims whose handler never ran").isEmpty();
  }
}
