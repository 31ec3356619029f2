package dev.kairos.node.lifecycle;

import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.lifecycle.ChainEndListener;
import dev.kairos.lifecycle.LifecycleWorker;
import dev.kairos.lifecycle.LoggingAlarmSink;
import dev.kairos.node.cluster.TimingParameters;
import dev.kairos.node.system.NodeIdentity;
import dev.kairos.node.system.redis.RedisConnectionProperties;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The node's lifecycle worker ({@code kairos.lifecycle.enabled}): retries, FIXED_DELAY re-arm,
 * child jobs, final-failure alarms and the jobs' recent-trigger indexes. Alarms go to the
 * application's {@link AlarmSink} (the alarm module's, when it is on the classpath), else to the
 * log.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LifecycleProperties.class)
@ConditionalOnProperty(prefix = "kairos.lifecycle", name = "enabled", matchIfMissing = true)
class LifecycleConfiguration {

  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean
  LifecycleWorker lifecycleWorker(
      KairosRedis redis,
      RedisKeys keys,
      AdhocTriggers adhoc,
      ObjectProvider<AlarmSink> alarms,
      ClusterClock clock,
      NodeIdentity node,
      RedisConnectionProperties redisProperties,
      TimingParameters timing,
      LifecycleProperties properties,
      MeterRegistry meters,
      ObjectProvider<ChainEndListener> chainEnds) {
    return new LifecycleWorker(
        redis,
        keys,
        adhoc,
        alarms.getIfAvailable(LoggingAlarmSink::new),
        clock,
        properties.toConfig(node.name(), redisProperties.getTimeout()),
        meters,
        // the workflows' driver, when workflows are on
        chainEnds.getIfAvailable(() -> ChainEndListener.NONE));
  }
}
