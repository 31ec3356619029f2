package dev.kairos.node.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.route.RocketMqCredentials;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.protocol.DispatchedTriggers;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.start.CompletionOutcome;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's result consumer as the safety net of the executor's own completion write, on a
 * real broker and Redis: results are published by hand, the way an executor publishes them, for
 * triggers whose records the test prepared.
 */
@RealInfra(redis = RedisMode.STANDALONE, rocketMq = true)
class ResultConsumerIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final AtomicInteger SEQ = new AtomicInteger();

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final String prefix = "results-" + UUID.randomUUID().toString().substring(0, 8);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final MessageCodec codec = new MessageCodec();
  private RedisKeys keys;
  private TriggerRecords records;
  private ClusterClock clock;
  private DefaultMQProducer producer;
  private ResultConsumer consumer;
  private final java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Trigger id → what completing its record did, as the listener was told. */
  private final Map<String, String> outcomeOf = new java.util.concurrent.ConcurrentHashMap<>();

  ResultConsumerIT(EmbeddedRocketMq mq, EmbeddedRedis embedded) {
    this.mq = mq;
    this.redis = KairosRedis.connect(List.of(embedded.uri()), false, Duration.ofSeconds(5));
  }

  @BeforeEach
  void start() throws Exception {
    keys = new RedisKeys(ClusterMetadata.initialise(redis, RedisKeys.DEFAULT_SHARDS));
    records = new TriggerRecords(redis, keys, Duration.ofMinutes(10), 100_000);
    clock = new ClusterClock(new RedisTimeSource(redis));
    clock.start();
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
      admin.start();
      admin.ensureTopic(TopicNames.RESULTS, 1, Duration.ofSeconds(40));
    }
    producer = new DefaultMQProducer("results_test_" + prefix);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName(prefix);
    producer.start();
    ResultMeters meters = new ResultMeters(registry, "n1");
    ResultRecorder recorder =
        new ResultRecorder(
            records,
            clock,
            Duration.ofMinutes(10),
            meters,
            List.of(
                (result, outcome) -> {
                  heard.add(result.triggerId());
                  if (outcome != null) {
                    outcomeOf.put(result.triggerId(), outcome.kind().name());
                  }
                }));
    consumer =
        new ResultConsumer(
            recorder,
            meters,
            "results_it_" + prefix,
            mq.nameServerAddress(),
            RocketMqCredentials.NONE,
            "n1-" + prefix,
            2,
            Duration.ofSeconds(5));
    consumer.start();
    awaitConsuming();
  }

  @AfterEach
  void close() {
    consumer.close();
    producer.shutdown();
    clock.close();
    redis.close();
  }

  @Test
  void aRunningRecordIsCompletedByTheResultAlone() throws Exception {
    TriggerMessage t = started("exec-a");
    assertThat(state(t)).isEqualTo("RUNNING");

    // The executor's own complete_trigger never ran (say Redis refused it); only its result did.
    publish(result(t, "exec-a", ResultStatus.SUCCESS, "done"));

    await("the record completed from the result", () -> "SUCCESS".equals(state(t)));
    Map<String, String> record = record(t);
    assertThat(record).containsEntry("executor", "exec-a").containsEntry("message", "done");
    assertThat(outcomeOf).containsEntry(t.triggerId(), "COMPLETED");
    // A new consumer group may also replay older results of the topic: meters count at least ours.
    assertThat(outcomes("COMPLETED")).isGreaterThanOrEqualTo(1.0);
    assertThat(registry.get("kairos.results").tag("status", "SUCCESS").counter().count())
        .isGreaterThanOrEqualTo(1.0);
    assertThat(registry.get("kairos.results.run.duration").timer().count()).isPositive();
  }

  @Test
  void aResultWhoseCompletionLandedChangesNothingAndALateOneNeverRegresses() throws Exception {
    TriggerMessage landed = started("exec-a");
    assertThat(complete(landed, "exec-a", TriggerState.FAIL).kind())
        .isEqualTo(CompletionOutcome.Kind.COMPLETED);
    TriggerMessage lost = started("exec-b");
    redis
        .sync()
        .hset(RedisKeys.trigger(keys.shardOf(lost.jobId()), lost.triggerId()), "state", "LOST");
    TriggerMessage other = started("exec-a");

    publish(result(landed, "exec-a", ResultStatus.FAIL, "boom"));
    publish(result(lost, "exec-b", ResultStatus.SUCCESS, "finished late"));
    publish(result(other, "exec-z", ResultStatus.SUCCESS, "not mine"));
    publish(result(landed, "exec-c", ResultStatus.DUPLICATE, "already FAIL"));

    await(
        "four results handled",
        () ->
            heard.containsAll(List.of(landed.triggerId(), lost.triggerId(), other.triggerId()))
                && outcomes("ALREADY") >= 1
                && outcomes("LATE") >= 1
                && outcomes("NOT_OWNER") >= 1);
    assertThat(state(landed)).isEqualTo("FAIL");
    assertThat(record(landed)).containsEntry("executor", "exec-a");
    assertThat(state(lost)).as("a final state is never regressed").isEqualTo("LOST");
    assertThat(record(lost).get("lateResult")).startsWith("SUCCESS|");
    assertThat(state(other))
        .as("only the executor that started it completes it")
        .isEqualTo("RUNNING");
  }

  /** A trigger record started by {@code executor}, as claim_start leaves it. */
  private TriggerMessage started(String executor) {
    String job = prefix + "-" + SEQ.incrementAndGet();
    long fire = clock.nowMs();
    TriggerMessage t =
        TriggerMessage.of(
            job + ":" + fire,
            "app",
            "h",
            fire,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire);
    DispatchedTriggers.write(redis, keys, t, "DISPATCHED");
    StartOutcome start = records.claimStart(StartRequest.of(t, executor, 0));
    assertThat(start.started()).isTrue();
    return t;
  }

  private CompletionOutcome complete(TriggerMessage t, String executor, TriggerState state) {
    return records.complete(t.triggerId(), t.jobId(), t.scheduledFireMs(), executor, state, "boom");
  }

  private ResultMessage result(
      TriggerMessage t, String executor, ResultStatus status, String text) {
    long now = System.currentTimeMillis();
    return ResultMessage.of(t, executor, 0, status, now - 5, now, text);
  }

  private void publish(ResultMessage result) throws Exception {
    producer.send(codec.toMessage(result));
  }

  /**
   * A new consumer group starts at the end of the topic once it has its queues: publish DUPLICATE
   * reports (which write nothing) until one arrives, so the test's results are not published
   * before.
   */
  private void awaitConsuming() throws Exception {
    TriggerMessage probe = started("probe");
    Poll.until(
        DEADLINE,
        Duration.ofMillis(500),
        "the result consumer to receive a probe",
        () -> {
          if (heard.contains(probe.triggerId())) {
            return true;
          }
          try {
            publish(result(probe, "probe", ResultStatus.DUPLICATE, "probe"));
          } catch (Exception e) {
            throw new IllegalStateException("publishing the probe failed", e);
          }
          return false;
        });
    heard.clear();
  }

  private double outcomes(String kind) {
    return registry.get("kairos.results.records").tag("outcome", kind).counter().count();
  }

  private String state(TriggerMessage t) {
    return record(t).get("state");
  }

  private Map<String, String> record(TriggerMessage t) {
    return redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(t.jobId()), t.triggerId()));
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(DEADLINE, Duration.ofMillis(100), what, condition::getAsBoolean);
  }
}
