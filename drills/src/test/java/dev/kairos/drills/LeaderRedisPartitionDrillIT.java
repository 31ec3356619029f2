package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The leader loses its network path to Redis for 15 s ({@code -Ddrill.partition.down-s}) while it
 * still reaches ZooKeeper, so it keeps heartbeating and stays leader, but cannot scan, claim or
 * take its own due entries: its commands time out and hang on the open connection. When the path
 * heals, its first passes forgive the gap (misfire grace) and claim what came due, and its wheel
 * fires what it held. Every fire of the window starts, late by up to the partition, none twice.
 */
@ProxiedNodeLinks
class LeaderRedisPartitionDrillIT extends DrillBase {

  private static final Duration DOWN =
      Duration.ofSeconds(Long.getLong("drill.partition.down-s", 15));

  @Test
  void partitioningTheLeaderFromRedisCostsNoFire() throws Exception {
    DrillNode partitioned = leader(cluster.nodes());
    long termBefore = partitioned.probe().cluster().term();
    NodeLinks links = cluster.links(partitioned);

    assertAnOutageCostsNoFire(
        "leader-redis-partition", links::partitionRedis, DOWN, links::healRedis);

    DrillNode leader = leader(cluster.nodes());
    log.info(
        "DRILL leader-redis-partition: {} cut off Redis for {} s; term {} before, {} after; {}"
            + " leads",
        partitioned.name(),
        DOWN.toSeconds(),
        termBefore,
        leader.probe().cluster().term(),
        leader.name());
    assertThat(leader.probe().cluster().term()).isGreaterThanOrEqualTo(termBefore);
  }
}
