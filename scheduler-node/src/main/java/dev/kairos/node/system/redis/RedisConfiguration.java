package dev.kairos.node.system.redis;

import dev.kairos.core.redis.KairosRedis;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The node's single Redis connection, standalone or cluster. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RedisConnectionProperties.class)
class RedisConfiguration {

  @Bean(destroyMethod = "close")
  KairosRedis kairosRedis(RedisConnectionProperties redis) {
    return KairosRedis.connect(redis.getUris(), redis.isCluster(), redis.getTimeout());
  }

  @Bean
  RedisHealthIndicator redisHealthIndicator(KairosRedis kairosRedis) {
    return new RedisHealthIndicator(kairosRedis);
  }
}
