package dev.kairos.drills;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Redis, the source of truth, stops for 6 s (SIGTERM: the AOF is synced) and starts again on the
 * same port with the same data, while 300 jobs fire every second (issue #14: such a restart once
 * ended 186 fires NO_EXECUTOR and left 6 start claims RUNNING with no handler run). Every node's
 * and executor's client reconnects; executors' leases are renewed again within a fraction of the
 * renew interval; fires that find no live slot meanwhile wait for one; a start claim whose answer
 * was lost is resolved. Nothing is missed, started twice, or claimed and not run.
 *
 * <p>One clean-clone run (Nov 24) missed 128 fires of the window's first second, on an overloaded
 * machine, before Redis stopped. The likely cause, fixed since: an executor whose lease trust
 * lapsed for a moment (renewals late under load) dropped the deliveries it had polled instead of
 * waiting for trust, leaving them DISPATCHED until the lost-trigger monitor's 60 s start timeout,
 * past this drill's wait ({@code ExecutorRedisFaultsIT} reproduces it). Should a fire be missed
 * again, the failure names where each missed fire stands in Redis.
 */
class RedisRestartDrillIT extends DrillBase {

  private static final Duration DOWN = Duration.ofSeconds(6);

  @Test
  void aRedisRestartCostsNoFire() throws Exception {
    assertAnOutageCostsNoFire(
        "redis-restart", () -> infra.redis().stop(), DOWN, () -> infra.redis().restart());
  }
}
