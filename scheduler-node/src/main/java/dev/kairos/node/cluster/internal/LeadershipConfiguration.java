package dev.kairos.node.cluster.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.coordinator.cluster.ClusterTransport;
import dev.kairos.coordinator.cluster.ElectionConfig;
import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.coordinator.cluster.Member;
import dev.kairos.coordinator.cluster.ZkLayout;
import dev.kairos.coordinator.failover.NodeHoldings;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.ShardReadiness;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.alarm.LeaderView;
import dev.kairos.node.cluster.ClusterProperties;
import dev.kairos.node.cluster.TimingParameters;
import dev.kairos.node.cluster.drain.DrainHealthIndicator;
import dev.kairos.node.cluster.drain.NodeDrain;
import dev.kairos.node.fire.NodeFirePath;
import dev.kairos.node.fire.ObservedTerm;
import dev.kairos.node.lifecycle.guard.LostTriggerDuty;
import dev.kairos.node.system.NodeIdentity;
import dev.kairos.node.system.redis.RedisConnectionProperties;
import dev.kairos.node.system.zookeeper.ZookeeperProperties;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Election over ZooKeeper with heartbeats over HTTP, and the leader's duties (docs/design.md
 * "Leadership"): on by default, {@code kairos.cluster.leadership.enabled=false} makes a node that
 * only fires.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(
    prefix = "kairos.cluster.leadership",
    name = "enabled",
    matchIfMissing = true)
class LeadershipConfiguration {

  private static final Logger log = LoggerFactory.getLogger(LeadershipConfiguration.class);

  @Bean
  ClusterSecret clusterSecret(ClusterProperties cluster) {
    ClusterSecret secret = ClusterSecret.of(cluster.getSecret());
    if (secret.generated()) {
      log.warn(
          "kairos.cluster.secret is not set: this node made up a random one, so no other node can"
              + " heartbeat it or ask it about the leader. Set the same secret on every node.");
    }
    return secret;
  }

  @Bean
  LeaderTracker leaderTracker() {
    return new LeaderTracker();
  }

  @Bean
  @ConditionalOnMissingBean
  ClusterTransport clusterTransport(
      ClusterSecret secret, TimingParameters timing, ObjectMapper json) {
    return new HttpClusterTransport(secret, timing.heartbeatInterval().dividedBy(2), json);
  }

  @Bean(destroyMethod = "close")
  ClusterNode clusterNode(
      CuratorFramework curator,
      ZookeeperProperties zookeeper,
      NodeIdentity identity,
      ClusterTransport transport,
      TimingParameters timing,
      ClusterProperties cluster,
      KairosRedis redis,
      RedisKeys keys,
      ClusterClock clock,
      ObjectProvider<NodeFirePath> firePath,
      ObservedTerm observedTerm,
      RedisConnectionProperties redisProperties,
      ObjectProvider<LostTriggerDuty> lostTriggers,
      ObjectProvider<ShardReadiness> readiness,
      MeterRegistry meters) {
    NodeFirePath path = firePath.getIfAvailable();
    WheelNotifier notifier = path != null ? path : WheelNotifier.NONE;
    ClusterNode node =
        new ClusterNode(
            new ClusterNode.Wiring(
                curator,
                new ZkLayout(zookeeper.getRootPath()),
                new Member(
                    identity.name(),
                    identity.incarnation(),
                    identity.internalAddress(),
                    System.currentTimeMillis()),
                transport,
                new ElectionConfig(
                    timing.heartbeatInterval(),
                    timing.leaderTimeout(),
                    timing.zkSessionTimeout(),
                    cluster.getLeadership().getFailoverSweepInterval()),
                redis,
                keys,
                cluster.toScanConfig(redisProperties.getTimeout()),
                clock,
                notifier,
                redisProperties.getTimeout(),
                observedTerm::observe,
                // persistence-sync's initialiser: shards whose data is being restored are skipped
                readiness.getIfAvailable(() -> ShardReadiness.ALL),
                meters));
    LostTriggerDuty lostTriggerDuty = lostTriggers.getIfAvailable();
    if (lostTriggerDuty != null) {
      // A leader duty: registered before start so it sees the first election.
      lostTriggerDuty.onStaleTerm(node.manager()::onStaleTerm);
      node.manager().addListener(lostTriggerDuty);
    }
    return node;
  }

  /** Joins the cluster after the web server is up, so every heartbeat can be answered. */
  @Bean
  ClusterJoin clusterJoin(ClusterNode node) {
    return new ClusterJoin(node);
  }

  /** Closed by {@link ClusterNode}. */
  @Bean(destroyMethod = "")
  LeadershipManager leadershipManager(ClusterNode node) {
    return node.manager();
  }

  /** What the alarm monitors read about leadership (NO_LEADER, and who judges cluster alarms). */
  @Bean
  LeaderView leaderView(ClusterNode node, CuratorFramework curator) {
    return new ClusterLeaderView(node.manager(), node.membership(), curator);
  }

  /**
   * Drains this node out of the cluster on request ({@code POST /api/v1/node/drain}); exits the
   * process afterwards when asked, through Spring's orderly shutdown.
   */
  @Bean(destroyMethod = "close")
  NodeDrain nodeDrain(
      ClusterNode node,
      ObjectProvider<NodeFirePath> firePath,
      KairosRedis redis,
      RedisKeys keys,
      LeaderTracker tracker,
      CuratorFramework curator,
      ZookeeperProperties zookeeper,
      ClusterProperties cluster,
      ConfigurableApplicationContext context,
      MeterRegistry meters) {
    ClusterDrainSteps steps =
        new ClusterDrainSteps(
            node,
            firePath.getIfAvailable(),
            new NodeHoldings(redis, keys),
            tracker,
            curator,
            new ZkLayout(zookeeper.getRootPath()));
    Runnable exit =
        () -> {
          // Not on the drain thread: the context's shutdown closes the drain and waits for it.
          Thread thread =
              new Thread(
                  () -> System.exit(SpringApplication.exit(context, () -> 0)), "kairos-drain-exit");
          thread.start();
        };
    NodeDrain drain =
        new NodeDrain(steps, cluster.getDrain().getTimeout(), System::currentTimeMillis, exit);
    Gauge.builder("kairos.node.drain.phase", drain, d -> d.status().phase().ordinal())
        .description(
            "this node's drain: 0 SERVING, 1 RESIGNING, 2 QUIESCING, 3 HANDING_OFF, 4 LEAVING,"
                + " 5 DRAINED, 6 FAILED")
        .register(meters);
    drain.start();
    return drain;
  }

  @Bean
  DrainHealthIndicator drainHealthIndicator(NodeDrain drain) {
    return new DrainHealthIndicator(drain);
  }

  @Bean
  ClusterHealthIndicator clusterHealthIndicator(ClusterNode node, LeaderTracker tracker) {
    return new ClusterHealthIndicator(node.manager(), node.membership(), tracker, node.duties());
  }
}
