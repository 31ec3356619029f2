package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.testing.NodeStandIn;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The executor against Redis faults, with the default {@link ResultReports#EXCEPTIONS}: a run whose
 * end landed in Redis publishes nothing (the record and its event are what the scheduler reacts
 * to), a run whose end could not be written publishes its result for the scheduler's result
 * consumer, reports about copies are always published, and a start claim whose answer was lost is
 * resolved, never left RUNNING unrun. Redis is really stopped, or really stalled.
 */
@RealInfra(rocketMq = true, redis = RedisMode.STANDALONE)
class ExecutorRedisFaultsIT {

  private static final RedisKeys KEYS = NodeStandIn.KEYS;
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private final EmbeddedRocketMq mq;
  private final EmbeddedRedis embeddedRedis;
  private final KairosRedis redis;
  private final String app = "reports-" + UUID.randomUUID().toString().substring(0, 8);
  private final CountDownLatch release = new CountDownLatch(1);
  private final java.util.concurrent.atomic.AtomicInteger quickRuns =
      new java.util.concurrent.atomic.AtomicInteger();
  private NodeStandIn node;
  private KairosExecutor executor;

  ExecutorRedisFaultsIT(EmbeddedRocketMq mq, EmbeddedRedis redis) {
    this.mq = mq;
    this.embeddedRedis = redis;
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(2));
  }

  @BeforeEach
  void start() throws Exception {
    node = new NodeStandIn(mq, redis, app).createTopics(1, "quick", "held").consumeResults();
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, "instance-" + app, "localhost", List.of("quick", "held"))
            .withSlotCount(1);
    ExecutorSettings settings = ExecutorSettings.of(lease, mq.nameServerAddress());
    assertThat(settings.resultReports()).isEqualTo(ResultReports.EXCEPTIONS);
    executor =
        new KairosExecutor(
            redis,
            settings,
            Map.of("quick", ctx -> quickRuns.incrementAndGet(), "held", ctx -> release.await()));
    executor.start();
  }

  @AfterEach
  void close() {
    release.countDown();
    executor.close();
    node.close();
    redis.close();
  }

  @Test
  void aRunWhoseEndLandedInRedisPublishesNoResultButACopyIsReported() throws Exception {
    TriggerMessage t = dispatch("quick");
    Poll.until(DEADLINE, "the record to end SUCCESS", () -> "SUCCESS".equals(state(t)));
    // A copy sent after the end: its DUPLICATE report comes after anything the run published on
    // the one result queue, so reading up to it shows there was no SUCCESS result.
    send(t);
    awaitResult(t, ResultStatus.DUPLICATE);
    assertThat(node.results())
        .extracting(ResultMessage::status)
        .containsExactly(ResultStatus.DUPLICATE);
  }

  @Test
  void aRunWhoseEndCannotBeWrittenPublishesItsResult() throws Exception {
    TriggerMessage t = dispatch("held");
    Poll.until(DEADLINE, "the run to start", () -> "RUNNING".equals(state(t)));
    embeddedRedis.stop();
    try {
      release.countDown();
      ResultMessage result = awaitResult(t, ResultStatus.SUCCESS);
      assertThat(result.executorId()).isEqualTo("instance-" + app);
    } finally {
      embeddedRedis.restart();
    }
    // Nothing wrote the end: the scheduler's result consumer would, from the result above.
    Poll.until(DEADLINE, "Redis to answer again", () -> state(t) != null);
    assertThat(state(t)).isEqualTo("RUNNING");
  }

  @Test
  void aStartClaimWhoseAnswerWasLostRunsTheHandlerOnce() throws Exception {
    // DEBUG SLEEP stalls the server longer than the executor's 2 s command timeout: the claim
    // times out on the client, then runs on the server once the sleep ends (committed, answer
    // lost), and the retries behind it find the trigger RUNNING by this executor.
    // A first run loads claim_start into the server's script cache, so the stalled claim below is
    // an EVALSHA the server runs (a NOSCRIPT answer would commit nothing).
    TriggerMessage first = dispatch("quick");
    Poll.until(DEADLINE, "the first run", () -> "SUCCESS".equals(state(first)));
    TriggerMessage t = recorded("quick");
    try (KairosRedis staller =
        KairosRedis.connect(List.of(embeddedRedis.uri()), false, Duration.ofSeconds(10))) {
      var sleep = debugSleep(staller, 4);
      send(t);
      sleep.toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
      Poll.until(DEADLINE, "the record to end SUCCESS", () -> "SUCCESS".equals(state(t)));
      assertThat(quickRuns).hasValue(2);
      Poll.until(DEADLINE, "the offset to be released", () -> executor.unstartedDeliveries() == 0);
      assertThat(executor.stats().errors()).isPositive();
      assertThat(executor.ownLostClaims()).isEqualTo(1);
    }
  }

  @Test
  void aDeliveryWhoseClaimFindsTheLeaseUntrustedStartsOnceTrustReturns() throws Exception {
    // A lease trusted for 2 s after each renewal (TTL 6 s, margin 4 s): a 4 s stall of Redis
    // lapses the executor's trust while the lease key survives, so the lease is trusted again
    // when Redis answers. A delivery queued behind a running one of its SERIAL job reaches its
    // start claim during the lapse; it must wait for trust, not be dropped (dropped, it would stay
    // DISPATCHED with its offset pending until the lost-trigger monitor's start timeout).
    executor.close();
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, "instance-" + app, "localhost", List.of("quick", "held"))
            .withSlotCount(1)
            .withTiming(Duration.ofSeconds(6), Duration.ofSeconds(1), Duration.ofSeconds(4));
    executor =
        new KairosExecutor(
            redis,
            ExecutorSettings.of(lease, mq.nameServerAddress()),
            Map.of("quick", ctx -> quickRuns.incrementAndGet(), "held", ctx -> release.await()));
    executor.start();
    TriggerMessage running = dispatch("held");
    Poll.until(DEADLINE, "the first run to start", () -> "RUNNING".equals(state(running)));
    TriggerMessage queued = recorded("held", running.scheduledFireMs() + 1_000);
    send(queued);
    Poll.until(DEADLINE, "the second to be received", () -> executor.unstartedDeliveries() == 1);
    try (KairosRedis staller =
        KairosRedis.connect(List.of(embeddedRedis.uri()), false, Duration.ofSeconds(10))) {
      var sleep = debugSleep(staller, 4);
      Poll.until(
          Duration.ofSeconds(4),
          "the lease's trust to lapse",
          () -> !executor.health().leaseValid());
      release.countDown(); // the second's claim now runs into the untrusted lease
      sleep.toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
    Poll.until(DEADLINE, "the second to end SUCCESS", () -> "SUCCESS".equals(state(queued)));
    Poll.until(DEADLINE, "the offset to be released", () -> executor.unstartedDeliveries() == 0);
    assertThat(executor.reclaims()).as("the lease was kept, not lost").isZero();
  }

  private static java.util.concurrent.CompletionStage<String> debugSleep(
      KairosRedis staller, int seconds) {
    return staller
        .async()
        .dispatch(
            io.lettuce.core.protocol.CommandType.DEBUG,
            new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
            new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8)
                .add("SLEEP")
                .add(seconds));
  }

  private String state(TriggerMessage t) {
    try {
      return redis.sync().hget(RedisKeys.trigger(KEYS.shardOf(t.jobId()), t.triggerId()), "state");
    } catch (RuntimeException redisDown) {
      return null;
    }
  }

  /** Writes the trigger record the way a node does, then sends it to slot 0. */
  private TriggerMessage dispatch(String handler) throws Exception {
    TriggerMessage trigger = recorded(handler);
    send(trigger);
    return trigger;
  }

  /** Writes the trigger record the way a node does before it publishes. */
  private TriggerMessage recorded(String handler) {
    return recorded(handler, System.currentTimeMillis());
  }

  private TriggerMessage recorded(String handler, long fire) {
    String job = app + "-" + handler;
    TriggerMessage trigger =
        TriggerMessage.of(
            job + ":" + fire,
            app,
            handler,
            fire,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire);
    return node.record(trigger, "DISPATCHED");
  }

  private void send(TriggerMessage trigger) throws Exception {
    node.send(trigger, 0);
  }

  private ResultMessage awaitResult(TriggerMessage t, ResultStatus status) {
    return node.awaitResult(t, status);
  }
}
