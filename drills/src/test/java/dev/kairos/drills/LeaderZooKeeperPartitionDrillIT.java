package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The leader loses its network path to every ZooKeeper server for 15 s ({@code
 * -Ddrill.partition.down-s}) while it still reaches Redis and the broker, and 300 jobs fire every
 * second. It must stop leading on SUSPENDED (docs/design.md "Leadership"); its session expires, the
 * followers elect a higher term and move the entries it held; it keeps firing only what is still in
 * its own keys. When the path heals it rejoins as a follower. No fire is lost or run twice.
 */
@ProxiedNodeLinks
class LeaderZooKeeperPartitionDrillIT extends DrillBase {

  private static final Duration DOWN =
      Duration.ofSeconds(Long.getLong("drill.partition.down-s", 15));

  @Test
  void partitioningTheLeaderFromZooKeeperCostsNoFire() throws Exception {
    DrillNode partitioned = leader(cluster.nodes());
    long termBefore = partitioned.probe().cluster().term();
    NodeLinks links = cluster.links(partitioned);

    assertAnOutageCostsNoFire(
        "leader-zookeeper-partition", links::partitionZooKeeper, DOWN, links::healZooKeeper);

    DrillNode leader = leader(cluster.nodes());
    long termAfter = leader.probe().cluster().term();
    log.info(
        "DRILL leader-zookeeper-partition: {} cut off ZooKeeper for {} s; term {} before, {} after;"
            + " {} leads; all three nodes agree on it",
        partitioned.name(),
        DOWN.toSeconds(),
        termBefore,
        termAfter,
        leader.name());
    assertThat(termAfter).as("a higher term leads after the partition").isGreaterThan(termBefore);
    cluster.awaitMembers(cluster.nodes(), NODES, TAKEOVER_DEADLINE);
  }
}
