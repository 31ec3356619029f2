package dev.kairos.coordinator.wheel;

import dev.kairos.coordinator.ClusterFixture;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;

/** {@link NodeWheelStoreScenarios} on one Redis server: one script call carries every shard. */
@RealInfra(redis = RedisMode.STANDALONE)
class NodeWheelStoreStandaloneIT extends NodeWheelStoreScenarios {

  private final EmbeddedRedis server;

  NodeWheelStoreStandaloneIT(EmbeddedRedis server) {
    this.server = server;
  }

  @Override
  ClusterFixture newFixture() {
    return ClusterFixture.standalone(server, 4);
  }

  @Override
  int takeCallsFor(int shards) {
    return 1;
  }
}
