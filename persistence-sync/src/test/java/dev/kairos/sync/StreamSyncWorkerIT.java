package dev.kairos.sync;

import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;

/** {@link StreamSyncWorkerScenarios} on a real Redis Cluster: the worker reads each shard apart. */
@RealInfra(redis = RedisMode.CLUSTER, postgres = true)
class StreamSyncWorkerIT extends StreamSyncWorkerScenarios {

  private final EmbeddedRedisCluster cluster;

  StreamSyncWorkerIT(EmbeddedRedisCluster cluster, EmbeddedPostgreSql pg) {
    super(pg);
    this.cluster = cluster;
  }

  @Override
  SyncFixture fixture() {
    return new SyncFixture(cluster, pg);
  }
}
