package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.EmbeddedZooKeeperEnsemble;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Two of the three ZooKeeper servers stop, so the ensemble has no quorum for 20 s ({@code
 * -Ddrill.zookeeper.down-s=60}: issue #14's minute), while 300 jobs fire every second. Without
 * ZooKeeper no node may lead: the leader steps down on SUSPENDED, nobody scans, and the nodes fire
 * only what they already hold. When the quorum is back a leader is elected with a higher term, and
 * its first pass forgives the gap up to the misfire grace, so the fires of the outage start late
 * under the default 5 s misfire threshold, none lost and none twice.
 */
class ZooKeeperQuorumLossDrillIT extends DrillBase {

  private static final Duration DOWN =
      Duration.ofSeconds(Long.getLong("drill.zookeeper.down-s", 20));

  @Test
  void aQuorumLossCostsNoFire() throws Exception {
    EmbeddedZooKeeperEnsemble zk = infra.zookeeperEnsemble();
    long termBefore = leader(cluster.nodes()).probe().cluster().term();
    assertAnOutageCostsNoFire(
        "zookeeper-quorum-loss",
        () -> {
          zk.stopServer(0);
          zk.stopServer(1);
        },
        DOWN,
        () -> {
          // Each restart waits until its server takes sessions, which needs the other: together.
          CompletableFuture<Void> first = CompletableFuture.runAsync(() -> zk.restartServer(0));
          CompletableFuture<Void> second = CompletableFuture.runAsync(() -> zk.restartServer(1));
          CompletableFuture.allOf(first, second).join();
        });
    long termAfter = leader(cluster.nodes()).probe().cluster().term();
    log.info(
        "DRILL zookeeper-quorum-loss: term {} before, {} after {} s without quorum",
        termBefore,
        termAfter,
        DOWN.toSeconds());
    assertThat(termAfter).as("a new term leads after the quorum is back").isGreaterThan(termBefore);
  }
}
