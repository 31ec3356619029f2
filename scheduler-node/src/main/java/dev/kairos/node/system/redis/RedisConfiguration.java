package dev.kairos.node.system.redis;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.ReplicaWait;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The node's single Redis connection, standalone or cluster. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RedisConnectionProperties.class)
class RedisConfiguration {

  @Bean(destroyMethod = "close")
  KairosRedis kairosRedis(RedisConnectionProperties redis, MeterRegistry meters) {
    KairosRedis connected =
        KairosRedis.connect(
            redis.getUris(),
            redis.isCluster(),
            redis.getTimeout(),
            new ReplicaWait.Policy(redis.getWaitReplicas(), redis.getWaitTimeout()));
    ReplicaWait wait = connected.replicaWait();
    FunctionCounter.builder("kairos.redis.wait.calls", wait, ReplicaWait::waits)
        .description("WAIT commands sent after claim scripts (kairos.redis.wait-replicas)")
        .register(meters);
    FunctionCounter.builder("kairos.redis.wait.unacknowledged", wait, ReplicaWait::unacknowledged)
        .description("claim writes that proceeded with fewer replicas acknowledging than asked")
        .register(meters);
    return connected;
  }

  @Bean
  RedisHealthIndicator redisHealthIndicator(KairosRedis kairosRedis) {
    return new RedisHealthIndicator(kairosRedis);
  }
}
