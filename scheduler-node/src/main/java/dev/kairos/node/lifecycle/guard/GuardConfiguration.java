package dev.kairos.node.lifecycle.guard;

import dev.kairos.coordinator.pause.ClusterPause;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.node.cluster.InvalidTimingException;
import dev.kairos.node.cluster.TimingParameters;
import dev.kairos.node.fire.RocketMqTriggerSender;
import dev.kairos.node.system.redis.RedisConnectionProperties;
import dev.kairos.node.system.rocketmq.RocketMqProperties;
import dev.kairos.protocol.lost.OpenTriggerStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What keeps triggers from getting stuck, and the operator's brakes: the cluster-wide pause, the
 * cancel of a trigger, and the leader's lost-trigger monitor ({@code
 * kairos.lifecycle.monitor.enabled}), which {@code LeadershipConfiguration} registers as a leader
 * duty.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LostMonitorProperties.class)
class GuardConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ClusterPause clusterPause(KairosRedis redis, ClusterClock clock, MeterRegistry meters) {
    ClusterPause pause = new ClusterPause(redis, clock);
    Gauge.builder("kairos.cluster.paused", pause, GuardConfiguration::pausedGauge)
        .description("1 while scheduling is paused cluster-wide, 0 otherwise")
        .register(meters);
    return pause;
  }

  /** Read from Redis when scraped, so every node reports the cluster's flag, not a cached copy. */
  private static double pausedGauge(ClusterPause pause) {
    try {
      return pause.isPaused() ? 1 : 0;
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  @Bean
  PauseHealthIndicator schedulingHealthIndicator(ClusterPause pause) {
    return new PauseHealthIndicator(pause);
  }

  @Bean
  @ConditionalOnMissingBean
  TriggerCanceller triggerCanceller(
      KairosRedis redis, RedisKeys keys, ClusterClock clock, TimingParameters timing) {
    return new TriggerCanceller(
        redis, keys, clock, timing.dedupWindow(), JobStore.DEFAULT_EVENTS_MAX_LEN);
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnProperty(
      prefix = "kairos.lifecycle.monitor",
      name = "enabled",
      matchIfMissing = true)
  LostTriggerDuty lostTriggerDuty(
      LostMonitorProperties properties,
      TimingParameters timing,
      KairosRedis redis,
      RedisKeys keys,
      ClusterClock clock,
      DefaultMQProducer producer,
      RocketMqProperties rocketmq,
      RedisConnectionProperties redisProperties,
      MeterRegistry meters) {
    List<String> violations = timingViolations(properties, timing.dedupWindow());
    if (!violations.isEmpty()) {
      throw new InvalidTimingException(violations);
    }
    LostMonitorSettings settings =
        new LostMonitorSettings(
            properties.getInterval(),
            properties.getStartTimeout(),
            properties.getBacklogLimit(),
            properties.getBatchSize(),
            properties.getMaxPagesPerShard(),
            properties.getMaxReadRate());
    OpenTriggerStore store =
        new OpenTriggerStore(
            redis,
            timing.dedupWindow(),
            JobStore.DEFAULT_EVENTS_MAX_LEN,
            redisProperties.getTimeout(),
            meters);
    SlotRegistry slots = new SlotRegistry(redis);
    RocketMqTriggerSender sender = new RocketMqTriggerSender(producer, rocketmq.getSendTimeout());
    GuardMeters guardMeters = new GuardMeters(meters);
    return new LostTriggerDuty(
        (term, onStaleTerm) ->
            new LostTriggerMonitor(
                term,
                store,
                keys,
                slots::liveSlots,
                sender,
                clock,
                settings,
                onStaleTerm,
                guardMeters));
  }

  /** The monitor's timing rules that involve other properties; empty when all hold. */
  static List<String> timingViolations(LostMonitorProperties properties, Duration dedupWindow) {
    List<String> violations = new ArrayList<>();
    belowDedupWindow("start-timeout", properties.getStartTimeout(), dedupWindow, violations);
    belowDedupWindow("backlog-limit", properties.getBacklogLimit(), dedupWindow, violations);
    if (properties.getBacklogLimit().compareTo(properties.getStartTimeout()) < 0) {
      violations.add(
          "kairos.lifecycle.monitor.backlog-limit ("
              + properties.getBacklogLimit()
              + ") must be at least kairos.lifecycle.monitor.start-timeout ("
              + properties.getStartTimeout()
              + "): it is the longest a trigger waits in a backlog before it is re-sent");
    }
    return violations;
  }

  private static void belowDedupWindow(
      String property, Duration value, Duration dedupWindow, List<String> violations) {
    if (value.compareTo(dedupWindow) >= 0) {
      violations.add(
          "kairos.lifecycle.monitor."
              + property
              + " ("
              + value
              + ") must be less than kairos.cluster.dedup-window ("
              + dedupWindow
              + "): a re-dispatch after the window would only be reported EXPIRED");
    }
  }
}
