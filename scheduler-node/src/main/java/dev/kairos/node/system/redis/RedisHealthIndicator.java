package dev.kairos.node.system.redis;

import dev.kairos.core.redis.KairosRedis;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/** UP when Redis answers PING within the command timeout. */
class RedisHealthIndicator extends AbstractHealthIndicator {

  private final KairosRedis redis;

  RedisHealthIndicator(KairosRedis redis) {
    super("Redis health check failed");
    this.redis = redis;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    builder.withDetail("mode", redis.isCluster() ? "cluster" : "standalone");
    long started = System.nanoTime();
    String reply = redis.sync().ping();
    builder
        .status("PONG".equals(reply) ? "UP" : "DOWN")
        .withDetail("ping", reply)
        .withDetail("latencyMicros", (System.nanoTime() - started) / 1_000);
  }
}
