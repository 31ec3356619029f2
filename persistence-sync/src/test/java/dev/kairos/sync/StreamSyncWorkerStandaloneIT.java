package dev.kairos.sync;

import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;

/**
 * {@link StreamSyncWorkerScenarios} on one real Redis server: the worker reads every shard with one
 * XREADGROUP.
 */
@RealInfra(redis = RedisMode.STANDALONE, postgres = true)
class StreamSyncWorkerStandaloneIT extends StreamSyncWorkerScenarios {

  private final EmbeddedRedis server;

  StreamSyncWorkerStandaloneIT(EmbeddedRedis server, EmbeddedPostgreSql pg) {
    super(pg);
    this.server = server;
  }

  @Override
  SyncFixture fixture() {
    return new SyncFixture(server, pg);
  }
}
