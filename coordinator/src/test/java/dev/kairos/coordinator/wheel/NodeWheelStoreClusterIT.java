package dev.kairos.coordinator.wheel;

import dev.kairos.coordinator.ClusterFixture;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;

/** {@link NodeWheelStoreScenarios} on a Redis Cluster: one script call per shard. */
@RealInfra(redis = RedisMode.CLUSTER)
class NodeWheelStoreClusterIT extends NodeWheelStoreScenarios {

  private final EmbeddedRedisCluster cluster;

  NodeWheelStoreClusterIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  ClusterFixture newFixture() {
    return new ClusterFixture(cluster, 4);
  }

  @Override
  int takeCallsFor(int shards) {
    return shards;
  }
}
