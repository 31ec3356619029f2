package dev.kairos.node.workflow;

import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.workflow.WorkflowDriver;
import dev.kairos.workflow.WorkflowScheduler;
import dev.kairos.workflow.WorkflowStore;
import dev.kairos.workflow.WorkflowValidator;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Workflows ({@code kairos.workflow.enabled}): the store, the driver (the lifecycle worker's chain
 * end listener), the validator, and the leader duty that starts scheduled runs.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WorkflowProperties.class)
@ConditionalOnProperty(prefix = "kairos.workflow", name = "enabled", matchIfMissing = true)
class WorkflowConfiguration {

  @Bean
  @ConditionalOnMissingBean
  WorkflowStore workflowStore(KairosRedis redis) {
    return new WorkflowStore(redis);
  }

  @Bean
  @ConditionalOnMissingBean
  WorkflowValidator workflowValidator(WorkflowProperties properties) {
    return new WorkflowValidator(properties.getMaxNodes());
  }

  @Bean
  @ConditionalOnMissingBean
  WorkflowDriver workflowDriver(
      WorkflowStore store,
      AdhocTriggers adhoc,
      ClusterClock clock,
      WorkflowProperties properties,
      MeterRegistry meters) {
    return new WorkflowDriver(store, adhoc, clock, properties.getRunRetention(), meters);
  }

  /** Registered with the leadership manager before the node joins, so it sees the first term. */
  @Bean(destroyMethod = "close")
  WorkflowScheduleDuty workflowScheduleDuty(
      WorkflowStore store,
      WorkflowDriver driver,
      ClusterClock clock,
      WorkflowProperties properties,
      MeterRegistry meters,
      ObjectProvider<LeadershipManager> leadership) {
    WorkflowScheduleDuty duty =
        new WorkflowScheduleDuty(
            () ->
                new WorkflowScheduler(store, driver, clock, properties.getScheduleTick(), meters));
    leadership.ifAvailable(m -> m.addListener(duty));
    return duty;
  }
}
