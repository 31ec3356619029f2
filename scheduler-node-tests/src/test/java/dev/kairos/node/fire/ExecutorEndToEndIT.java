package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.executor.ResultReports;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.node.KairosNodeApplication;
import dev.kairos.node.result.ResultListener;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole path with real executors (issue #5, "End to end"): a scheduler node in process on real
 * Redis Cluster, ZooKeeper and RocketMQ, two {@link KairosExecutor} instances (different instance
 * ids, slots 0 and 1), 200 jobs firing every second for 20 s with ROUND routing. Every expected
 * fire starts exactly once, never before its fire time; each ends SUCCESS in Redis and its result
 * reaches the node's result consumer.
 */
@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE, rocketMq = true)
class ExecutorEndToEndIT {

  private static final String APP = "e2e-exec";
  private static final String HANDLER = "work";
  private static final int JOBS = 200;
  private static final int QUEUES = 4;
  private static final Duration RUN = Duration.ofSeconds(20);
  private static final long MARGIN_MS = 3_000;
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  /** One handler start: on which executor, and the test's cluster time when it began. */
  private record Start(int executor, long atMs, long fireMs) {}

  private final Map<String, List<Start>> starts = new ConcurrentHashMap<>();
  private final Map<String, ResultStatus> results = new ConcurrentHashMap<>();

  @Test
  void everyFireStartsExactlyOnceNeverEarlyAndItsResultIsRecorded(EmbeddedInfrastructure infra)
      throws Exception {
    String topic = TopicNames.handlerTopic(APP, HANDLER);
    infra.rocketMq().createTopic(topic, QUEUES);
    try (TopicAdmin admin = new TopicAdmin(infra.rocketMq().nameServerAddress(), "kairos")) {
      admin.start();
      admin.ensureTopic(TopicNames.RESULTS, TopicNames.RESULTS_QUEUES, Duration.ofSeconds(40));
    }
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", "0");
    properties.put("kairos.node.name", "e2e-exec-node");
    properties.put("kairos.zookeeper.root-path", "/kairos-e2e-exec-" + UUID.randomUUID());
    properties.put("kairos.cluster.secret", "e2e-secret");
    properties.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    properties.put("kairos.fire.broker-cluster", "kairos");

    List<AutoCloseable> closing = new ArrayList<>();
    try (KairosRedis redis =
            KairosRedis.connect(infra.redisCluster().uris(), true, Duration.ofSeconds(5));
        ClusterClock clock = new ClusterClock(new RedisTimeSource(redis))) {
      clock.start();
      ConfigurableApplicationContext node = start(properties);
      closing.add(node);
      RedisKeys keys = node.getBean(RedisKeys.class);
      for (int e = 0; e < 2; e++) {
        int executor = e;
        SlotLeaseConfig lease =
            SlotLeaseConfig.of(
                    APP, "e2e-exec-" + e + "-" + UUID.randomUUID(), "test", List.of(HANDLER))
                .withSlotCount(QUEUES);
        KairosExecutor instance =
            new KairosExecutor(
                redis,
                ExecutorSettings.of(lease, infra.rocketMq().nameServerAddress())
                    .withResultReports(ResultReports.ALL),
                Map.of(
                    HANDLER,
                    ctx ->
                        starts
                            .computeIfAbsent(ctx.triggerId(), k -> new CopyOnWriteArrayList<>())
                            .add(new Start(executor, clock.nowMs(), ctx.scheduledFireMs()))));
        instance.start();
        closing.add(instance);
        assertThat(instance.slot()).isEqualTo(e);
      }

      JobStore jobs = node.getBean(JobStore.class);
      String prefix = "e2e-exec-" + UUID.randomUUID().toString().substring(0, 8) + "-";
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < JOBS; i++) {
        String id = prefix + i;
        jobs.create(
            JobDefinition.builder(id)
                .app(APP)
                .handler(HANDLER)
                .cron("* * * * * *")
                .routing(RoutingStrategy.ROUND)
                .build());
        ids.add(id);
      }
      // After the last create: a job has no fire before it exists.
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
      assertThat(expected).hasSizeGreaterThanOrEqualTo(JOBS * 5);
      Poll.until(
          DEADLINE,
          Duration.ofMillis(200),
          "every expected fire started and its result consumed",
          () ->
              expected.stream()
                  .filter(id -> !starts.containsKey(id) || !results.containsKey(id))
                  .toList(),
          List::isEmpty,
          "no fire without its start or its result");
      // Only now: disabling drops wheel entries not sent yet, which would race with late fires.
      for (String id : ids) {
        jobs.disable(id);
      }
      assertThat(expected.stream().filter(id -> !starts.containsKey(id)).toList())
          .as("fires never started")
          .isEmpty();
      assertThat(expected.stream().filter(id -> !results.containsKey(id)).toList())
          .as("fires whose result the node never consumed")
          .isEmpty();

      List<String> duplicated = expected.stream().filter(id -> starts.get(id).size() > 1).toList();
      assertThat(duplicated).as("fires started more than once").isEmpty();
      long toleranceMs =
          1
              + (clock.roundTripNanos() + node.getBean(ClusterClock.class).roundTripNanos())
                  / 2_000_000;
      List<Long> lateness = new ArrayList<>();
      int[] perExecutor = new int[2];
      for (String id : expected) {
        Start start = starts.get(id).get(0);
        long fireMs = new TriggerId(id).fireMs();
        assertThat(start.fireMs()).isEqualTo(fireMs);
        assertThat(start.atMs())
            .as("started at or after its fire time (tolerance %d ms): %s", toleranceMs, id)
            .isGreaterThanOrEqualTo(fireMs - toleranceMs);
        lateness.add(start.atMs() - fireMs);
        perExecutor[start.executor()]++;
        assertThat(results.get(id)).as("result of %s", id).isEqualTo(ResultStatus.SUCCESS);
      }
      assertThat(perExecutor[0]).as("starts on executor 0 (ROUND)").isPositive();
      assertThat(perExecutor[1]).as("starts on executor 1 (ROUND)").isPositive();
      // Each record ended SUCCESS, and its start claim (Redis TIME) was not before the fire time.
      for (String id : expected) {
        Map<String, String> record =
            redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(new TriggerId(id).jobId()), id));
        assertThat(record.get("state")).as("record of %s", id).isEqualTo("SUCCESS");
        assertThat(Long.parseLong(record.get("startedMs")))
            .as("start claim of %s", id)
            .isGreaterThanOrEqualTo(new TriggerId(id).fireMs() - toleranceMs);
      }
      Collections.sort(lateness);
      System.out.printf(
          "E2E-EXEC %d fires (%d jobs), starts per executor %d / %d, start lateness p50 %d ms,"
              + " p99 %d ms, max %d ms%n",
          expected.size(),
          JOBS,
          perExecutor[0],
          perExecutor[1],
          lateness.get(lateness.size() / 2),
          lateness.get((int) Math.ceil(lateness.size() * 0.99) - 1),
          lateness.get(lateness.size() - 1));
    } finally {
      for (int i = closing.size() - 1; i >= 0; i--) {
        closing.get(i).close();
      }
    }
  }

  private ConfigurableApplicationContext start(Map<String, String> properties) {
    String[] args =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    ResultListener listener = (result, outcome) -> results.put(result.triggerId(), result.status());
    return new SpringApplicationBuilder(KairosNodeApplication.class)
        .initializers(context -> context.getBeanFactory().registerSingleton("e2eResults", listener))
        .run(args);
  }

  private static long ceilSecond(long ms) {
    return (ms + 999) / 1_000 * 1_000;
  }
}
