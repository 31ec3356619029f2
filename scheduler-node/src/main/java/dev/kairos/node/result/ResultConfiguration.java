package dev.kairos.node.result;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.node.cluster.TimingParameters;
import dev.kairos.node.fire.FireProperties;
import dev.kairos.node.system.NodeIdentity;
import dev.kairos.node.system.rocketmq.RocketMqProperties;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.start.TriggerRecords;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The node's consumer of executors' results ({@code kairos.results.enabled}). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ResultProperties.class)
@ConditionalOnProperty(prefix = "kairos.results", name = "enabled", matchIfMissing = true)
class ResultConfiguration {

  private static final Logger log = LoggerFactory.getLogger(ResultConfiguration.class);

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  ResultConsumer resultConsumer(
      KairosRedis redis,
      RedisKeys keys,
      ClusterClock clock,
      TimingParameters timing,
      RocketMqProperties rocketmq,
      ResultProperties properties,
      NodeIdentity node,
      MeterRegistry meterRegistry,
      ObjectProvider<ResultListener> listeners,
      ObjectProvider<TopicAdmin> topicAdmin,
      FireProperties fire) {
    ResultMeters meters = new ResultMeters(meterRegistry, node.name());
    TriggerRecords records =
        new TriggerRecords(
            redis, keys, timing.dedupWindow(), TriggerRecords.DEFAULT_EVENTS_MAX_LEN);
    ResultRecorder recorder =
        new ResultRecorder(
            records, clock, timing.dedupWindow(), meters, listeners.orderedStream().toList());
    ResultConsumer consumer =
        new ResultConsumer(
            recorder,
            meters,
            ResultConsumer.GROUP,
            rocketmq.getNameServer(),
            rocketmq.credentials(),
            node.name(),
            properties.getConsumerThreads(),
            properties.getWriteTimeout());
    startInBackground(consumer);
    topicAdmin.ifAvailable(admin -> ensureResultsTopic(admin, fire.getTopicTimeout()));
    return consumer;
  }

  /**
   * A node starts without a reachable NameServer (its fire path copes), so the consumer starts on
   * its own thread; if the broker is unreachable then, this node consumes no results until it
   * restarts. Nothing is lost meanwhile: executors write their trigger records themselves, this
   * consumer only repairs records whose write failed, and the other nodes' consumers share the
   * group.
   */
  private static void startInBackground(ResultConsumer consumer) {
    Thread thread =
        new Thread(
            () -> {
              try {
                consumer.start();
              } catch (RuntimeException e) {
                log.warn(
                    "result consumer not started ({}); this node consumes no results until it"
                        + " restarts, other nodes and the executors' own writes complete records",
                    e.toString());
                consumer.close();
              }
            },
            "kairos-results-start");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Creates the results topic if no executor has yet, so the consumer group takes its queues (and
   * its starting offsets) before the first result is published. On its own thread: a node starts
   * without a reachable NameServer.
   */
  private static void ensureResultsTopic(TopicAdmin admin, Duration timeout) {
    Thread thread =
        new Thread(
            () -> {
              try {
                admin.ensureTopic(TopicNames.RESULTS, TopicNames.RESULTS_QUEUES, timeout);
              } catch (RuntimeException e) {
                log.warn(
                    "could not create topic {} ({}); executors create it when they start",
                    TopicNames.RESULTS,
                    e.toString());
              }
            },
            "kairos-results-topic");
    thread.setDaemon(true);
    thread.start();
  }
}
