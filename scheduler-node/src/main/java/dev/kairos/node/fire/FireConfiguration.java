package dev.kairos.node.fire;

import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.node.cluster.TimingParameters;
import dev.kairos.node.route.SlotChoosers;
import dev.kairos.node.system.NodeIdentity;
import dev.kairos.node.system.ParamsEncryptionProperties;
import dev.kairos.node.system.redis.RedisConnectionProperties;
import dev.kairos.node.system.rocketmq.RocketMqProperties;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The node's data plane: the shard layout (fixed in Redis by the first node), cluster time, the job
 * store the admin API writes through, ad-hoc triggers, and the fire path ({@code
 * kairos.fire.enabled}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({FireProperties.class, ParamsEncryptionProperties.class})
class FireConfiguration {

  private static final Logger log = LoggerFactory.getLogger(FireConfiguration.class);

  @Bean
  @ConditionalOnMissingBean
  RedisKeys redisKeys(KairosRedis redis, FireProperties fire, TimingParameters timing) {
    RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, fire.getInitialShards()));
    // Refuses to start beside nodes or executors that remember start claims for another window.
    ClusterMetadata.agreeOnDedupWindow(redis, timing.dedupWindow(), "kairos.cluster.dedup-window");
    return keys;
  }

  /** Started here: a node that cannot read the reference clock refuses to start. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  ClusterClock clusterClock(KairosRedis redis) {
    ClusterClock clock = new ClusterClock(new RedisTimeSource(redis));
    clock.start();
    return clock;
  }

  @Bean
  @ConditionalOnMissingBean
  JobStore jobStore(
      KairosRedis redis,
      RedisKeys keys,
      ClusterClock clock,
      ParamsEncryptionProperties paramsEncryption) {
    SecretParamsCipher secretParams = paramsEncryption.cipher();
    if (secretParams.seals()) {
      log.info("secret params are sealed at rest with key {}", secretParams.keyIds().get(0));
    }
    return new JobStore(redis, keys, clock, JobStore.DEFAULT_EVENTS_MAX_LEN, secretParams);
  }

  /** "Trigger now", retries and child triggers: claimed by the leader's scan like any fire. */
  @Bean
  @ConditionalOnMissingBean
  AdhocTriggers adhocTriggers(KairosRedis redis, RedisKeys keys, ClusterClock clock) {
    return new AdhocTriggers(redis, keys, clock);
  }

  @Bean
  @ConditionalOnMissingBean
  NodeWheelStore nodeWheelStore(
      KairosRedis redis,
      RedisKeys keys,
      NodeIdentity node,
      RedisConnectionProperties redisProperties,
      MeterRegistry meters) {
    return new NodeWheelStore(
        redis,
        keys,
        node.name(),
        JobStore.DEFAULT_EVENTS_MAX_LEN,
        redisProperties.getTimeout(),
        meters);
  }

  @Bean
  @ConditionalOnMissingBean
  ObservedTerm observedTerm() {
    return new ObservedTerm();
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "kairos.fire", name = "enabled", matchIfMissing = true)
  TopicAdmin topicAdmin(RocketMqProperties rocketmq, FireProperties fire) {
    TopicAdmin admin =
        new TopicAdmin(rocketmq.getNameServer(), fire.getBrokerCluster(), rocketmq.credentials());
    admin.start();
    return admin;
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "kairos.fire", name = "enabled", matchIfMissing = true)
  NodeFirePath nodeFirePath(
      NodeWheelStore store,
      KairosRedis redis,
      TopicAdmin topicAdmin,
      DefaultMQProducer producer,
      ClusterClock clock,
      FireProperties fire,
      RocketMqProperties rocketmq,
      TimingParameters timing,
      ObservedTerm term,
      MeterRegistry meters) {
    SlotRegistry slots = new SlotRegistry(redis);
    SlotRouter router =
        new SlotRouter(
            slots::read, fire.getSlotCacheTtl(), System::nanoTime, SlotChoosers.create());
    TopicEnsurer topics =
        new TopicEnsurer(
            topic ->
                topicAdmin.ensureTopic(
                    topic, rocketmq.getDefaultQueueCount(), fire.getTopicTimeout()),
            fire.getInflightSweepInterval(),
            System::nanoTime);
    NodeFirePath path =
        new NodeFirePath(
            store,
            router,
            topics,
            new RocketMqTriggerSender(producer, rocketmq.getSendTimeout()),
            clock,
            term,
            fire.toSettings(timing),
            meters);
    path.start();
    return path;
  }
}
