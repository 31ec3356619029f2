package dev.kairos.drills;

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
    assertAnOutageCostsNoFire(
        "broker-restart",
        () -> infra.rocketMq().stopBroker(),
        DOWN,
        () -> infra.rocketMq().startBroker());
  }
}
