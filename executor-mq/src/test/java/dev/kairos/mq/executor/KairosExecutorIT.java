package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.core.secret.SecretParamsKey;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.testing.NodeStandIn;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(rocketMq = true, redis = RedisMode.STANDALONE)
class KairosExecutorIT {

  private static final RedisKeys KEYS = NodeStandIn.KEYS;
  private static final int QUEUES = 4;
  private static final AtomicInteger SEQ = new AtomicInteger();
  private static final SecretParamsKey PARAMS_KEY =
      SecretParamsKey.parse("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final String app = "exec-" + UUID.randomUUID().toString().substring(0, 8);
  private List<ResultMessage> results;
  private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
  private final Map<String, Long> firstStartMs = new ConcurrentHashMap<>();
  private final Map<String, String> paramsSeen = new ConcurrentHashMap<>();
  private NodeStandIn node;
  private KairosExecutor executor;

  KairosExecutorIT(EmbeddedRocketMq mq, EmbeddedRedis redis) {
    this.mq = mq;
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(5));
  }

  @BeforeEach
  void infrastructure() throws Exception {
    node = new NodeStandIn(mq, redis, app).createTopics(QUEUES, "count", "slow").consumeResults();
    results = node.results();

    executor = countingExecutor("instance-" + app);
    executor.start();
    assertThat(executor.slot()).isZero();
  }

  @AfterEach
  void close() {
    executor.close();
    node.close();
    redis.close();
  }

  /** An executor of the app whose "count" handler counts runs per trigger id; not started. */
  private KairosExecutor countingExecutor(String instanceId) {
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, instanceId, "localhost", List.of("count", "slow"))
            .withSlotCount(QUEUES);
    Map<String, JobHandler> handlers =
        Map.of(
            "count",
            ctx -> {
              firstStartMs.putIfAbsent(ctx.triggerId(), System.currentTimeMillis());
              paramsSeen.put(ctx.triggerId(), ctx.params());
              runs.computeIfAbsent(ctx.triggerId(), k -> new AtomicInteger()).incrementAndGet();
            },
            "slow",
            ctx -> Thread.sleep(60_000));
    return new KairosExecutor(
        redis,
        ExecutorSettings.of(lease, mq.nameServerAddress())
            .withResultReports(ResultReports.ALL)
            .withSecretParams(SecretParamsCipher.openingWith(List.of(PARAMS_KEY))),
        handlers);
  }

  /** Writes the trigger record the way a node does, then sends a copy to slot 0. */
  private TriggerMessage dispatch(String job, String handler, long timeoutMs, int copies)
      throws Exception {
    return dispatch(job, handler, timeoutMs, copies, BlockStrategy.SERIAL_EXECUTION);
  }

  private TriggerMessage dispatch(
      String job, String handler, long timeoutMs, int copies, BlockStrategy block)
      throws Exception {
    return dispatch(job, handler, timeoutMs, copies, block, 0);
  }

  /** As above, due {@code aheadMs} from now (the executor holds it until then). */
  private TriggerMessage dispatch(
      String job, String handler, long timeoutMs, int copies, BlockStrategy block, long aheadMs)
      throws Exception {
    return dispatch(job, handler, timeoutMs, copies, block, aheadMs, "");
  }

  private TriggerMessage dispatch(
      String job,
      String handler,
      long timeoutMs,
      int copies,
      BlockStrategy block,
      long aheadMs,
      String params)
      throws Exception {
    long fire = System.currentTimeMillis() + aheadMs + SEQ.incrementAndGet();
    TriggerMessage trigger =
        TriggerMessage.of(
            job + ":" + fire, app, handler, fire, 1, params, 0, 1, timeoutMs, block, 1, fire);
    node.record(trigger, "DISPATCHED");
    node.send(trigger, 0, copies);
    return trigger;
  }

  private void awaitResults(String what, Duration timeout, BooleanSupplier done) {
    node.awaitResults(what, timeout, done);
  }

  private long count(ResultStatus status) {
    return results.stream().filter(r -> r.status() == status).count();
  }

  @Test
  void everyTriggerStartsOnceAndItsCopiesAreReportedDuplicate() throws Exception {
    List<TriggerMessage> sent = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      sent.add(dispatch(app + "-job" + (i % 3), "count", 0, 2));
    }
    awaitResults(
        "10 successes and 10 duplicates", Duration.ofSeconds(60), () -> results.size() >= 20);
    assertThat(count(ResultStatus.SUCCESS)).isEqualTo(10);
    assertThat(count(ResultStatus.DUPLICATE)).isEqualTo(10);
    for (TriggerMessage t : sent) {
      assertThat(runs.get(t.triggerId())).as(t.triggerId()).hasValue(1);
      assertThat(
              redis.sync().hget(RedisKeys.trigger(KEYS.shardOf(t.jobId()), t.triggerId()), "state"))
          .isEqualTo("SUCCESS");
    }
    assertThat(executor.stats().started()).isEqualTo(10);
  }

  @Test
  void sealedParamsReachTheHandlerOpenedAndAKeyTheExecutorLacksFailsTheRunNamingIt()
      throws Exception {
    String job = app + "-sealed";
    String params =
        "{\"url\":\"https://example.com\",\"headers\":{\"Authorization\":\"Bearer t0p\"}}";
    String sealed = SecretParamsCipher.sealingWith(PARAMS_KEY, List.of()).seal(job, params);
    SecretParamsKey foreign = SecretParamsKey.parse("ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=");
    String foreignSealed = SecretParamsCipher.sealingWith(foreign, List.of()).seal(job, params);
    assertThat(sealed).doesNotContain("t0p");

    TriggerMessage opened = dispatch(job, "count", 0, 1, BlockStrategy.SERIAL_EXECUTION, 0, sealed);
    TriggerMessage refused =
        dispatch(job, "count", 0, 1, BlockStrategy.SERIAL_EXECUTION, 0, foreignSealed);

    awaitResults("both results", Duration.ofSeconds(60), () -> results.size() >= 2);
    assertThat(paramsSeen.get(opened.triggerId())).isEqualTo(params);
    assertThat(runs).doesNotContainKey(refused.triggerId());
    ResultMessage failed =
        results.stream()
            .filter(r -> r.triggerId().equals(refused.triggerId()))
            .findFirst()
            .orElseThrow();
    assertThat(failed.status()).isEqualTo(ResultStatus.FAIL);
    assertThat(failed.message())
        .contains("params field headers.Authorization is sealed with key " + foreign.id())
        .contains("it holds " + PARAMS_KEY.id())
        .doesNotContain("t0p");
  }

  @Test
  void aTriggerSentAheadOfItsFireTimeIsHeldAndStartsAtItNeverBefore() throws Exception {
    // As a node sends it, its pre-dispatch lead ahead; a batch of triggers in one message.
    long fire = System.currentTimeMillis() + 3_000;
    List<TriggerMessage> burst = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String job = app + "-ahead" + i;
      TriggerMessage trigger =
          TriggerMessage.of(
              job + ":" + fire,
              app,
              "count",
              fire,
              1,
              "",
              0,
              1,
              0,
              BlockStrategy.SERIAL_EXECUTION,
              1,
              fire - 3_000);
      burst.add(node.record(trigger, "DISPATCHED"));
    }
    node.sendBatch(burst, 0);
    awaitResults(
        "the batch held for its fire time",
        Duration.ofSeconds(20),
        () -> executor.heldDeliveries() == burst.size());
    assertThat(executor.stats().started()).as("nothing starts before its fire time").isZero();
    assertThat(executor.unstartedDeliveries()).as("held, so not committed").isEqualTo(5);

    awaitResults("5 successes", Duration.ofSeconds(30), () -> count(ResultStatus.SUCCESS) == 5);
    for (TriggerMessage t : burst) {
      assertThat(runs.get(t.triggerId())).as(t.triggerId()).hasValue(1);
      assertThat(firstStartMs.get(t.triggerId()))
          .as("the handler of %s started at or after its fire time", t.triggerId())
          .isGreaterThanOrEqualTo(fire);
      String startedMs =
          redis.sync().hget(RedisKeys.trigger(KEYS.shardOf(t.jobId()), t.triggerId()), "startedMs");
      assertThat(Long.parseLong(startedMs)).isGreaterThanOrEqualTo(fire);
    }
    assertThat(executor.heldDeliveries()).isZero();
  }

  @Test
  void aTriggerWhoseJobWasDisabledAfterItWasSentIsDroppedAtItsFireTime() throws Exception {
    // Due 2 s ahead, so the executor holds it and the disable below lands before its start claim
    // (due at once, the claim could win the race and run it).
    TriggerMessage trigger =
        dispatch(app + "-disabled", "count", 0, 1, BlockStrategy.SERIAL_EXECUTION, 2_000);
    // As if disabled between the node's send and the start: the claim drops it.
    redis
        .sync()
        .hset(RedisKeys.job(KEYS.shardOf(trigger.jobId()), trigger.jobId()), "enabled", "false");
    awaitResults(
        "the start claim's verdict",
        Duration.ofSeconds(30),
        () ->
            "DROPPED_STALE"
                .equals(
                    redis
                        .sync()
                        .hget(
                            RedisKeys.trigger(KEYS.shardOf(trigger.jobId()), trigger.triggerId()),
                            "state")));
    assertThat(runs).doesNotContainKey(trigger.triggerId());
    assertThat(executor.stats().started()).isZero();
    assertThat(executor.stats().dropped()).isEqualTo(1);
  }

  @Test
  void aHandlerPastItsTimeoutIsInterruptedAndReportedTimeout() throws Exception {
    TriggerMessage t = dispatch(app + "-slowjob", "slow", 300, 1);
    awaitResults("a TIMEOUT", Duration.ofSeconds(30), () -> count(ResultStatus.TIMEOUT) == 1);
    ResultMessage result = results.get(0);
    assertThat(result.triggerId()).isEqualTo(t.triggerId());
    assertThat(result.endedMs() - result.startedMs()).isLessThan(10_000);
    assertThat(
            redis.sync().hget(RedisKeys.trigger(KEYS.shardOf(t.jobId()), t.triggerId()), "state"))
        .isEqualTo("TIMEOUT");
  }

  @Test
  void discardLaterDropsANewcomerWhileTheJobRuns() throws Exception {
    String job = app + "-busy";
    TriggerMessage first = dispatch(job, "slow", 1_500, 1, BlockStrategy.DISCARD_LATER);
    awaitResults(
        "the first run to start", Duration.ofSeconds(20), () -> executor.stats().started() == 1);
    TriggerMessage second = dispatch(job, "slow", 1_500, 1, BlockStrategy.DISCARD_LATER);
    awaitResults("DISCARDED and TIMEOUT", Duration.ofSeconds(30), () -> results.size() >= 2);
    assertThat(results)
        .extracting(ResultMessage::triggerId, ResultMessage::status)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(second.triggerId(), ResultStatus.DISCARDED),
            org.assertj.core.groups.Tuple.tuple(first.triggerId(), ResultStatus.TIMEOUT));
  }

  @Test
  void coverEarlyInterruptsTheRunningOneForTheNewcomer() throws Exception {
    String job = app + "-cover";
    TriggerMessage first = dispatch(job, "slow", 0, 1, BlockStrategy.COVER_EARLY);
    awaitResults(
        "the first run to start", Duration.ofSeconds(20), () -> executor.stats().started() == 1);
    TriggerMessage second = dispatch(job, "slow", 500, 1, BlockStrategy.COVER_EARLY);
    awaitResults("DISCARDED and TIMEOUT", Duration.ofSeconds(30), () -> results.size() >= 2);
    assertThat(results)
        .extracting(ResultMessage::triggerId, ResultMessage::status)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(first.triggerId(), ResultStatus.DISCARDED),
            org.assertj.core.groups.Tuple.tuple(second.triggerId(), ResultStatus.TIMEOUT));
    assertThat(redis.sync().hget(RedisKeys.trigger(KEYS.shardOf(job), first.triggerId()), "state"))
        .isEqualTo("DISCARDED");
  }

  @Test
  void aReplacementInstanceDrainsTheBacklogOfItsSlotWithoutRerunningStartedTriggers()
      throws Exception {
    TriggerMessage before = dispatch(app + "-a", "count", 0, 1);
    awaitResults("the first result", Duration.ofSeconds(30), () -> results.size() >= 1);
    executor.close();
    // Sent while the slot has no owner: it waits in queue 0.
    List<TriggerMessage> backlog = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      backlog.add(dispatch(app + "-b" + i, "count", 0, 1));
    }
    executor = countingExecutor("replacement-" + app);
    executor.start();
    assertThat(executor.slot()).isZero();
    awaitResults("the backlog", Duration.ofSeconds(60), () -> count(ResultStatus.SUCCESS) >= 6);
    assertThat(runs.get(before.triggerId())).hasValue(1);
    for (TriggerMessage t : backlog) {
      assertThat(runs.get(t.triggerId())).as(t.triggerId()).hasValue(1);
    }
    assertThat(count(ResultStatus.DUPLICATE)).isZero();
  }

  @Test
  void anExecutorStartingWhileARestartedNameServerRoutesNothingWaitsForTheBroker()
      throws Exception {
    executor.close();
    // Sent while the slot has no owner, on the producer's cached route: it waits in queue 0.
    TriggerMessage waiting = dispatch(app + "-gap", "count", 0, 1);
    String topic = TopicNames.handlerTopic(app, "count");
    restartNameServerUntilItRoutesNothing(topic);
    // Both waits of a starting executor in the same gap: topic creation (the starter's first step,
    // on another thread here) and the consumer's route, which the executor asks for itself.
    CompletableFuture<Integer> created =
        CompletableFuture.supplyAsync(
            () -> {
              try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
                admin.start();
                return admin.ensureTopic(topic, QUEUES, ExecutorSettings.DEFAULT_ROUTE_TIMEOUT);
              }
            });
    executor = countingExecutor("after-gap-" + app);
    executor.start();
    assertThat(created.get(90, TimeUnit.SECONDS)).isEqualTo(QUEUES);
    assertThat(executor.slot()).isZero();
    awaitResults(
        "the trigger sent before the gap", Duration.ofSeconds(30), () -> !results.isEmpty());
    assertThat(runs.get(waiting.triggerId())).hasValue(1);
  }

  /**
   * Stops and starts the NameServer until it serves no route of {@code topic}: a new NameServer
   * knows no broker until the broker's periodic registration, which may land at once.
   */
  private void restartNameServerUntilItRoutesNothing(String topic) throws Exception {
    DefaultMQAdminExt probe = new DefaultMQAdminExt(5_000);
    probe.setNamesrvAddr(mq.nameServerAddress());
    probe.setInstanceName("route-probe-" + app);
    probe.start();
    try {
      for (int attempt = 1; ; attempt++) {
        mq.stopNameServer();
        mq.startNameServer();
        try {
          probe.examineTopicRouteInfo(topic);
        } catch (MQClientException noRoute) {
          return;
        }
        assertThat(attempt).as("NameServer restarts that kept serving the route").isLessThan(3);
      }
    } finally {
      probe.shutdown();
    }
  }

  @Test
  void triggersHeldWhenTheLeaseIsLostStartOnlyOnTheSlotsNextOwnerAtTheirFireTime()
      throws Exception {
    // Sent its pre-dispatch lead ahead, to slot 0, and held by this executor.
    long fire = System.currentTimeMillis() + 6_000;
    TriggerMessage held =
        TriggerMessage.of(
            app + "-held:" + fire,
            app,
            "count",
            fire,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire - 6_000);
    node.record(held, "DISPATCHED");
    node.send(held, 0);
    awaitResults("the trigger held", Duration.ofSeconds(20), () -> executor.heldDeliveries() == 1);

    // Another instance takes slot 0 (as after a pause past the lease); this one moves to slot 1,
    // still holding the delivery of slot 0's queue, which it never committed.
    String slots = RedisKeys.slots(app);
    redis
        .sync()
        .hset(
            slots,
            "0",
            "{\"instanceId\":\"thief\",\"slot\":0,\"expiresMs\":99999999999999,"
                + "\"handlers\":[\"count\"]}");
    awaitResults(
        "the executor to re-claim a slot", Duration.ofSeconds(20), () -> executor.reclaims() == 1);
    assertThat(executor.slot()).isEqualTo(1);
    KairosExecutor loser = executor;

    redis.sync().hdel(slots, "0"); // the thief goes away; slot 0's next owner starts
    executor = countingExecutor("next-owner-" + app);
    try {
      executor.start();
      assertThat(executor.slot()).isZero();
      awaitResults(
          "the held trigger to run",
          Duration.ofSeconds(40),
          () -> count(ResultStatus.SUCCESS) == 1);
      awaitResults(
          "the loser's copy released at its fire time",
          Duration.ofSeconds(20),
          () -> loser.heldDeliveries() == 0);
      assertThat(results.get(0).executorId()).isEqualTo("next-owner-" + app);
      assertThat(runs.get(held.triggerId())).as("started once").hasValue(1);
      assertThat(firstStartMs.get(held.triggerId())).as("never early").isGreaterThanOrEqualTo(fire);
      assertThat(loser.stats().started()).as("the loser starts nothing of its lost slot").isZero();
      assertThat(
              redis
                  .sync()
                  .hget(
                      RedisKeys.trigger(KEYS.shardOf(held.jobId()), held.triggerId()), "executor"))
          .isEqualTo("next-owner-" + app);
    } finally {
      loser.close();
    }
  }

  @Test
  void anExecutorThatLostItsSlotLeavesTheQueueToTheSlotsNextOwner() throws Exception {
    // Another instance took slot 0 (as if this one had been paused past its lease).
    String slots = RedisKeys.slots(app);
    redis
        .sync()
        .hset(
            slots,
            "0",
            "{\"instanceId\":\"thief\",\"slot\":0,\"expiresMs\":99999999999999,"
                + "\"handlers\":[\"count\"]}");
    // The loser leaves slot 0 and re-claims the lowest free slot; "not consuming" is only the
    // short gap between the two, so the test waits for the re-claim, which stays observable.
    awaitResults(
        "the executor to re-claim a slot", Duration.ofSeconds(20), () -> executor.reclaims() == 1);
    assertThat(executor.slot()).isEqualTo(1);
    KairosExecutor loser = executor;

    TriggerMessage t = dispatch(app + "-after-loss", "count", 0, 1);
    redis.sync().hdel(slots, "0"); // the thief goes away; slot 0 is free again
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, "next-owner-" + app, "localhost", List.of("count", "slow"))
            .withSlotCount(QUEUES);
    executor =
        new KairosExecutor(
            redis,
            ExecutorSettings.of(lease, mq.nameServerAddress()).withResultReports(ResultReports.ALL),
            Map.of("count", ctx -> {}, "slow", ctx -> {}));
    try {
      executor.start();
      assertThat(executor.slot()).isZero();
      awaitResults(
          "the trigger to run", Duration.ofSeconds(30), () -> count(ResultStatus.SUCCESS) == 1);
      assertThat(results.get(0).executorId()).isEqualTo("next-owner-" + app);
      assertThat(
              redis
                  .sync()
                  .hget(RedisKeys.trigger(KEYS.shardOf(t.jobId()), t.triggerId()), "executor"))
          .isEqualTo("next-owner-" + app);
      assertThat(loser.stats().started()).isZero();
    } finally {
      loser.close();
    }
  }
}
