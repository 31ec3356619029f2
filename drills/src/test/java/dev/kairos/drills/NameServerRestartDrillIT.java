package dev.kairos.drills;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The RocketMQ NameServer, which only serves routes, is down for 15 s and comes back empty (as a
 * restarted process does), while 300 jobs fire every second. The nodes' producers and the
 * executors' consumers keep the routes they cached; the broker re-registers at its own period.
 * Every fire of the window starts, none twice, none claimed and left unrun.
 */
class NameServerRestartDrillIT extends DrillBase {

  private static final Duration DOWN = Duration.ofSeconds(15);

  @Test
  void aNameServerRestartCostsNoFire() throws Exception {
    assertAnOutageCostsNoFire(
        "nameserver-restart",
        () -> infra.rocketMq().stopNameServer(),
        DOWN,
        () -> infra.rocketMq().startNameServer());
  }
}
