package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.node.KairosNodeApplication;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole scheduling path on real Redis Cluster, ZooKeeper and RocketMQ: one node elects itself,
 * scans, claims into its own wheel, sends each fire its pre-dispatch lead ahead on cluster time and
 * publishes it to the handler topic, where a plain lite-pull consumer records what arrives and
 * when: every fire once, none sent earlier than its lead.
 */
@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE, rocketMq = true)
class NodeFireEndToEndIT {

  private static final String APP = "e2e";
  private static final String HANDLER = "tick";
  private static final int JOBS = 300;
  private static final int QUEUES = 4;
  private static final Duration RUN = Duration.ofSeconds(20);
  private static final long MARGIN_MS = 3_000;

  /** The shipped pre-dispatch lead: a trigger is sent this long before its fire time. */
  private static final long LEAD_MS = FirePathSettings.DEFAULT_PRE_DISPATCH.toMillis();

  /** One received copy: the trigger, and the test's cluster time when it was polled. */
  private record Received(TriggerMessage trigger, long receivedMs) {}

  @Test
  void everyFireInTheWindowArrivesExactlyOnceAndNeverEarly(EmbeddedInfrastructure infra)
      throws Exception {
    String topic = TopicNames.handlerTopic(APP, HANDLER);
    infra.rocketMq().createTopic(topic, QUEUES);
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", "0");
    properties.put("kairos.node.name", "e2e-node");
    properties.put("kairos.zookeeper.root-path", "/kairos-e2e-" + UUID.randomUUID());
    properties.put("kairos.cluster.secret", "e2e-secret");
    properties.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    properties.put(
        "kairos.fire.broker-cluster",
        "kairos" /* EmbeddedRocketMq names its broker cluster "kairos" */);

    try (KairosRedis redis =
            KairosRedis.connect(infra.redisCluster().uris(), true, Duration.ofSeconds(5));
        ClusterClock clock = new ClusterClock(new RedisTimeSource(redis));
        SlotLease first = lease(redis);
        SlotLease second = lease(redis);
        ConfigurableApplicationContext node = start(properties)) {
      clock.start();
      first.start();
      second.start();
      List<Received> received = new CopyOnWriteArrayList<>();
      AtomicBoolean consuming = new AtomicBoolean(true);
      DefaultLitePullConsumer consumer = consumer(infra, topic);
      Thread poller = new Thread(() -> poll(consumer, clock, received, consuming), "e2e-poller");
      poller.start();
      try {
        JobStore jobs = node.getBean(JobStore.class);
        String prefix = "e2e-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
          String id = prefix + i;
          jobs.create(
              JobDefinition.builder(id)
                  .app(APP)
                  .handler(HANDLER)
                  .cron("* * * * * *")
                  // Spread over both leased slots (queues), as the node did before routing
                  // strategies; the default FIRST would put every fire on queue 0.
                  .routing(RoutingStrategy.CONSISTENT_HASH)
                  .build());
          ids.add(id);
        }
        // After the last create: on a loaded machine creating 300 jobs can outlast the margin, and
        // a job has no fire before it exists.
        long createdMs = clock.nowMs();
        long runUntil = createdMs + RUN.toMillis();
        while (clock.nowMs() < runUntil) {
          Thread.sleep(200); // the run's length, not a wait for a condition
        }
        long stoppedMs = clock.nowMs();
        Set<String> expected = new TreeSet<>();
        long firstFire = ceilSecond(createdMs + MARGIN_MS);
        for (long fire = firstFire; fire <= stoppedMs - MARGIN_MS; fire += 1_000) {
          for (String id : ids) {
            expected.add(id + ":" + fire);
          }
        }
        // Disabled only once the window's fires arrived (or the deadline passed): disabling drops
        // wheel entries not yet sent, so disabling at stoppedMs raced with fires a loaded machine
        // sends more than the margin late.
        awaitAll(expected, received, Duration.ofSeconds(15));
        for (String id : ids) {
          jobs.disable(id);
        }

        Map<String, Integer> copies = new HashMap<>();
        for (Received r : received) {
          copies.merge(r.trigger().triggerId(), 1, Integer::sum);
        }
        List<String> missing = expected.stream().filter(id -> !copies.containsKey(id)).toList();
        List<String> duplicated =
            expected.stream().filter(id -> copies.getOrDefault(id, 0) > 1).toList();
        assertThat(missing).as("fires never received").isEmpty();
        assertThat(duplicated).as("fires received more than once").isEmpty();

        // The node stamps its cluster time at send: on the same clock as the fire time, so this
        // is exact. The receive time is the test's cluster time; both clocks sample the same Redis
        // master and may each be off by half their sample's round trip.
        long toleranceMs =
            1
                + (clock.roundTripNanos() + node.getBean(ClusterClock.class).roundTripNanos())
                    / 2_000_000;
        List<Long> lateness = new ArrayList<>();
        List<Long> sendLateness = new ArrayList<>();
        Map<Long, Long> worstPerSecond = new java.util.TreeMap<>();
        for (Received r : received) {
          TriggerMessage t = r.trigger();
          if (!expected.contains(t.triggerId())) {
            continue;
          }
          // Sent its pre-dispatch lead ahead, never earlier: the executor holds it until its fire
          // time (starting it is the executor's part, KairosExecutorIT; here nothing starts).
          assertThat(t.dispatchedMs())
              .as("sent no earlier than its lead before its fire time: %s", t.triggerId())
              .isGreaterThanOrEqualTo(t.scheduledFireMs() - LEAD_MS);
          assertThat(r.receivedMs())
              .as("received no earlier than its lead (tolerance %d ms): %s", toleranceMs, t)
              .isGreaterThanOrEqualTo(t.scheduledFireMs() - LEAD_MS - toleranceMs);
          lateness.add(r.receivedMs() - t.scheduledFireMs());
          sendLateness.add(t.dispatchedMs() - t.scheduledFireMs());
          worstPerSecond.merge(
              t.scheduledFireMs(), r.receivedMs() - t.scheduledFireMs(), Math::max);
        }
        System.out.printf(
            "E2E %d fires (%d jobs x %d s): receive time − fire time %s; send time − fire time %s;"
                + " clock tolerance %d ms%n",
            expected.size(),
            JOBS,
            expected.size() / JOBS,
            percentiles(lateness),
            percentiles(sendLateness),
            toleranceMs);
        System.out.println(
            "E2E worst receive lateness per fire second (ms): " + worstPerSecond.values());
      } finally {
        consuming.set(false);
        poller.join(10_000);
        consumer.shutdown();
      }
    }
  }

  private static SlotLease lease(KairosRedis redis) {
    return new SlotLease(
        redis,
        SlotLeaseConfig.of(APP, UUID.randomUUID().toString(), "e2e-test", List.of(HANDLER))
            .withSlotCount(QUEUES));
  }

  private static ConfigurableApplicationContext start(Map<String, String> properties) {
    String[] args =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    return new SpringApplicationBuilder(KairosNodeApplication.class).run(args);
  }

  private static DefaultLitePullConsumer consumer(EmbeddedInfrastructure infra, String topic)
      throws Exception {
    DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("e2e-" + UUID.randomUUID());
    consumer.setNamesrvAddr(infra.rocketMq().nameServerAddress());
    consumer.setInstanceName("e2e-consumer-" + UUID.randomUUID());
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setAutoCommit(false);
    consumer.setPollTimeoutMillis(100);
    consumer.start();
    List<MessageQueue> queues = new ArrayList<>(consumer.fetchMessageQueues(topic));
    // A fresh group reads from each queue's first offset (CONSUME_FROM_FIRST_OFFSET). No seek():
    // it cancels the pull task assign() just started, RocketMQ's client closes the broker channel
    // that task was using when it is interrupted, and the seek's own offset query on that channel
    // then fails ("send request to <broker> failed"), a race seen in CI.
    consumer.assign(queues);
    return consumer;
  }

  private static void poll(
      DefaultLitePullConsumer consumer,
      ClusterClock clock,
      List<Received> received,
      AtomicBoolean consuming) {
    MessageCodec codec = new MessageCodec();
    while (consuming.get()) {
      List<MessageExt> batch = consumer.poll();
      long now = clock.nowMs();
      for (MessageExt message : batch) {
        for (TriggerMessage trigger : codec.decodeTriggers(message.getBody())) {
          received.add(new Received(trigger, now));
        }
      }
    }
  }

  private static void awaitAll(Set<String> expected, List<Received> received, Duration deadline) {
    Poll.until(
        deadline,
        Duration.ofMillis(100),
        "every expected fire received",
        () -> {
          Set<String> missing = new java.util.TreeSet<>(expected);
          List.copyOf(received).forEach(r -> missing.remove(r.trigger().triggerId()));
          return missing;
        },
        Set::isEmpty,
        "no fire missing");
  }

  private static long ceilSecond(long ms) {
    return (ms + 999) / 1_000 * 1_000;
  }

  private static String percentiles(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    if (sorted.isEmpty()) {
      return "n/a";
    }
    return String.format(
        "p50 %d ms, p99 %d ms, max %d ms",
        sorted.get(sorted.size() / 2),
        sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1)),
        sorted.get(sorted.size() - 1));
  }
}
