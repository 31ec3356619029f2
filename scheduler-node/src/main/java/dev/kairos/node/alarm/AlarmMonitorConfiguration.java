package dev.kairos.node.alarm;

import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.EnabledApps;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.node.system.NodeIdentity;
import dev.kairos.node.system.redis.RedisConnectionProperties;
import dev.kairos.sync.worker.SyncHealth;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The node's cluster-condition alarms (issue #8): NO_LEADER judged by every member, SYNC_LAG and
 * APP_WITHOUT_EXECUTOR judged by the leader only, all raised on the node's {@link AlarmSink}. A
 * node without a sink ({@code kairos.alarm.enabled=false}) or without leadership ({@code
 * kairos.cluster.leadership.enabled=false}) checks nothing.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AlarmMonitorProperties.class)
@ConditionalOnProperty(prefix = "kairos.alarm.monitor", name = "enabled", matchIfMissing = true)
class AlarmMonitorConfiguration {

  private static final Logger log = LoggerFactory.getLogger(AlarmMonitorConfiguration.class);

  @Bean(initMethod = "start", destroyMethod = "close")
  ConditionMonitor alarmConditionMonitor(
      AlarmMonitorProperties properties,
      ObjectProvider<AlarmSink> sinks,
      ObjectProvider<LeaderView> leaders,
      ObjectProvider<SyncHealth> syncHealth,
      KairosRedis redis,
      RedisKeys keys,
      ClusterClock clock,
      NodeIdentity identity,
      RedisConnectionProperties redisProperties,
      MeterRegistry meters) {
    AlarmSink sink = sinks.getIfUnique();
    LeaderView leader = leaders.getIfUnique();
    List<ConditionCheck> checks = new ArrayList<>();
    if (sink == null || leader == null) {
      log.info(
          "cluster-condition alarms are off on this node: {}",
          sink == null ? "no alarm sink" : "it takes no part in leadership");
      return new ConditionMonitor(checks, properties.getInterval(), meters);
    }
    checks.add(
        new NoLeaderCheck(leader, clock, properties.getNoLeaderAfter(), sink, identity.name()));
    SyncHealth sync = syncHealth.getIfUnique();
    if (sync != null) {
      checks.add(
          new SyncLagCheck(
              sync::snapshot, properties.getSyncLagThreshold(), leader::isLeader, clock, sink));
    }
    EnabledApps apps = new EnabledApps(redis, keys, redisProperties.getTimeout().toMillis());
    SlotRegistry slots = new SlotRegistry(redis);
    checks.add(
        new AppWithoutExecutorCheck(
            apps::read,
            slots::liveSlots,
            leader::isLeader,
            properties.getExecutorGrace(),
            clock,
            sink));
    return new ConditionMonitor(checks, properties.getInterval(), meters);
  }
}
