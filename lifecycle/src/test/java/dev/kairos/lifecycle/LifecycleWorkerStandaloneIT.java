package dev.kairos.lifecycle;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.List;

/**
 * {@link LifecycleWorkerScenarios} on one real Redis server: the worker reads every shard with one
 * XREADGROUP.
 */
@RealInfra(redis = RedisMode.STANDALONE)
class LifecycleWorkerStandaloneIT extends LifecycleWorkerScenarios {

  private final EmbeddedRedis server;

  LifecycleWorkerStandaloneIT(EmbeddedRedis server) {
    this.server = server;
  }

  @Override
  KairosRedis connectToEmptyRedis() {
    KairosRedis redis = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(10));
    redis.sync().flushall();
    return redis;
  }
}
