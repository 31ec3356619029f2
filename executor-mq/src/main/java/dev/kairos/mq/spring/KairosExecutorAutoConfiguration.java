package dev.kairos.mq.spring;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.ReplicaWait;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Runs a Kairos executor for the {@link KairosJob} methods of the application: off with {@code
 * kairos.executor.enabled=false}. A {@link KairosRedis} bean of the application is used when there
 * is one; a {@link MeterRegistry} bean, when there is one, receives the executor's metrics.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"
    })
@ConditionalOnProperty(
    prefix = "kairos.executor",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(KairosExecutorProperties.class)
public class KairosExecutorAutoConfiguration {

  /** Static: a post-processor must exist before the beans it inspects. */
  @Bean
  @ConditionalOnMissingBean
  static KairosJobCollector kairosJobCollector() {
    return new KairosJobCollector();
  }

  @Bean
  @ConditionalOnMissingBean
  KairosRedis kairosRedis(
      KairosExecutorProperties properties, ObjectProvider<MeterRegistry> meterRegistry) {
    KairosExecutorProperties.Redis redis = properties.getRedis();
    KairosRedis connected =
        KairosRedis.connect(
            redis.getUris(),
            redis.isCluster(),
            redis.getTimeout(),
            new ReplicaWait.Policy(redis.getWaitReplicas(), redis.getWaitTimeout()));
    MeterRegistry meters = meterRegistry.getIfAvailable();
    if (meters != null) {
      ReplicaWait wait = connected.replicaWait();
      FunctionCounter.builder("kairos.redis.wait.calls", wait, ReplicaWait::waits)
          .description("WAIT commands sent after start-claim scripts")
          .register(meters);
      FunctionCounter.builder("kairos.redis.wait.unacknowledged", wait, ReplicaWait::unacknowledged)
          .description("start claims that proceeded with fewer replicas acknowledging than asked")
          .register(meters);
    }
    return connected;
  }

  @Bean
  @ConditionalOnMissingBean
  KairosExecutorLifecycle kairosExecutorLifecycle(
      KairosRedis redis,
      KairosExecutorProperties properties,
      KairosJobCollector collector,
      ObjectProvider<MeterRegistry> meterRegistry) {
    return new KairosExecutorLifecycle(
        redis, properties, collector, meterRegistry.getIfAvailable());
  }

  /**
   * Handlers' own SLF4J lines into their triggers' logs; only when the application uses Logback.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "ch.qos.logback.classic.LoggerContext")
  @ConditionalOnProperty(
      prefix = "kairos.executor.log",
      name = "capture-slf4j",
      havingValue = "true",
      matchIfMissing = true)
  static class LogCapture {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    JobLogCapture kairosJobLogCapture() {
      return new JobLogCapture();
    }
  }

  /** Registered only when the application has Spring Boot Actuator. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  static class Health {

    @Bean
    @ConditionalOnMissingBean(name = "kairosExecutorHealthIndicator")
    KairosExecutorHealthIndicator kairosExecutorHealthIndicator(KairosExecutorLifecycle lifecycle) {
      return new KairosExecutorHealthIndicator(lifecycle);
    }
  }
}
