package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fire that finds no live executor slot waits for one during the no-executor grace instead of
 * ending NO_EXECUTOR at once (issue #14: a Redis restart lapsed every lease for a few seconds and
 * 186 fires ended NO_EXECUTOR; #15: the first fires after a restart did the same). A real node fire
 * path, a real executor that registers only after the fire time, and an app that never has one.
 */
@RealInfra(redis = RedisMode.STANDALONE, rocketMq = true)
class NoExecutorGraceIT {

  private static final String HANDLER = "h";
  private static final Duration GRACE = FirePathSettings.DEFAULT_NO_EXECUTOR_GRACE;
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final String app = "grace-" + UUID.randomUUID().toString().substring(0, 8);
  private final String orphanApp = app + "-orphan";
  private final String node = app + "-node";
  private final Map<String, Long> starts = new ConcurrentHashMap<>();
  private final List<AutoCloseable> closing = new ArrayList<>();
  private RedisKeys keys;
  private JobStore jobs;
  private ClusterClock clock;
  private DueFireScanner scanner;
  private long term;

  NoExecutorGraceIT(EmbeddedRocketMq mq, EmbeddedRedis embedded) {
    this.mq = mq;
    this.redis = KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(5));
  }

  @BeforeEach
  void start() throws Exception {
    keys = new RedisKeys(ClusterMetadata.initialise(redis, RedisKeys.DEFAULT_SHARDS));
    clock = new ClusterClock(new RedisTimeSource(redis));
    clock.start();
    closing.add(clock);
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
      admin.start();
      admin.ensureTopic(TopicNames.handlerTopic(app, HANDLER), 2, Duration.ofSeconds(40));
      admin.ensureTopic(TopicNames.handlerTopic(orphanApp, HANDLER), 2, Duration.ofSeconds(40));
    }
    DefaultMQProducer producer = new DefaultMQProducer("grace_producer_" + app);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName(node);
    producer.start();
    closing.add(producer::shutdown);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    NodeWheelStore store =
        new NodeWheelStore(redis, keys, node, 100_000, Duration.ofSeconds(5), meters);
    FirePathSettings settings =
        FirePathFixture.settings(
            Duration.ofMillis(500), Duration.ofSeconds(5), Duration.ofSeconds(30));
    assertThat(settings.noExecutorGrace()).isEqualTo(GRACE);
    NodeFirePath path =
        FirePathFixture.path(
            store,
            FirePathFixture.leaseRouter(redis),
            new RocketMqTriggerSender(producer, Duration.ofSeconds(5)),
            clock,
            () -> term,
            settings,
            meters);
    path.start();
    closing.add(path);
    jobs = new JobStore(redis, keys, clock);
    term = FirePathFixture.newLeaderTerm(redis, keys);
    scanner = FirePathFixture.scanner(redis, keys, clock, path, meters);
  }

  @AfterEach
  void close() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
    redis.close();
  }

  private Map<String, String> record(String jobId, long fire) {
    return redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(jobId), jobId + ":" + fire));
  }

  @Test
  void aFireWaitsForAnExecutorThatRegistersLateAndEndsNoExecutorOnlyAfterTheGrace()
      throws Exception {
    long fire = (clock.nowMs() / 1_000 + 2) * 1_000;
    String late = app + "-late";
    String orphan = orphanApp + "-job";
    jobs.create(JobDefinition.builder(late).app(app).handler(HANDLER).oneShot(fire).build());
    jobs.create(
        JobDefinition.builder(orphan).app(orphanApp).handler(HANDLER).oneShot(fire).build());
    scanner.scan(term);
    // Nothing hosts the app when the fire is routed: the trigger waits for a slot.
    Poll.until(DEADLINE, "the fire time to pass", () -> clock.nowMs() > fire + 1_500);
    assertThat(record(late, fire)).containsEntry("state", "CLAIMED");
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, app + "-exec", "test", List.of(HANDLER)).withSlotCount(2);
    KairosExecutor executor =
        new KairosExecutor(
            redis,
            ExecutorSettings.of(lease, mq.nameServerAddress()),
            Map.of(HANDLER, ctx -> starts.put(ctx.triggerId(), clock.nowMs())));
    executor.start();
    closing.add(executor);

    Poll.until(DEADLINE, "the late executor to run the fire", () -> starts.size() == 1);
    assertThat(starts).containsOnlyKeys(late + ":" + fire);
    Poll.until(
        DEADLINE,
        "the orphan's fire to end NO_EXECUTOR",
        () -> "NO_EXECUTOR".equals(record(orphan, fire).get("state")));
    long ended = Long.parseLong(record(orphan, fire).get("endedMs"));
    assertThat(ended - fire).isGreaterThanOrEqualTo(GRACE.toMillis());
  }
}
