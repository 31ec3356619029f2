package dev.kairos.lifecycle;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;

/** {@link LifecycleWorkerScenarios} on a real Redis Cluster: the worker reads each shard apart. */
@RealInfra(redis = RedisMode.CLUSTER)
class LifecycleWorkerIT extends LifecycleWorkerScenarios {

  private final EmbeddedRedisCluster cluster;

  LifecycleWorkerIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  KairosRedis connectToEmptyRedis() {
    for (int i = 0; i < cluster.size(); i++) {
      cluster.flushNode(i);
    }
    return KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(10));
  }
}
