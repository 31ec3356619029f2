package dev.kairos.node.lifecycle.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.JobHandler;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.node.fire.RocketMqTriggerSender;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.fence.StaleTermException;
import dev.kairos.protocol.lost.OpenTriggerStore;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lost-trigger monitor, cancel and the fence on real Redis Cluster and RocketMQ, with real
 * {@link KairosExecutor}s consuming the handler topic.
 */
@RealInfra(redis = RedisMode.CLUSTER, rocketMq = true)
class LostTriggerMonitorIT {

  private static final int QUEUES = 4;
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Duration INTERVAL = Duration.ofMillis(200);

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final RedisKeys keys;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final String app = "guard-" + UUID.randomUUID().toString().substring(0, 8);
  private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
  private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private DefaultMQProducer producer;
  private long term;

  LostTriggerMonitorIT(EmbeddedRedisCluster cluster, EmbeddedRocketMq mq) {
    this.mq = mq;
    this.redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(10));
    this.keys = new RedisKeys(ClusterMetadata.initialise(redis, RedisKeys.DEFAULT_SHARDS));
  }

  @BeforeEach
  void infrastructure() throws Exception {
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), EmbeddedRocketMq.CLUSTER_NAME)) {
      admin.start();
      for (String handler : List.of("count", "block", "sleepy")) {
        admin.ensureTopic(TopicNames.handlerTopic(app, handler), QUEUES, Duration.ofSeconds(40));
      }
      admin.ensureTopic(TopicNames.RESULTS, 1, Duration.ofSeconds(40));
    }
    producer = new DefaultMQProducer("guard_test_" + app);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName("guard-test-" + app);
    producer.start();
    // Every test's leader outranks whatever other tests of this JVM left in the fences.
    term = fence().highestFence() + 1;
  }

  @AfterEach
  void close() throws Exception {
    release.countDown();
    while (!closeables.isEmpty()) {
      closeables.pop().close();
    }
    producer.shutdown();
    redis.close();
  }

  private ShardFence fence() {
    return new ShardFence(redis, keys, Duration.ofSeconds(10));
  }

  private <T extends AutoCloseable> T closeLater(T closeable) {
    closeables.push(closeable);
    return closeable;
  }

  private Map<String, JobHandler> handlers() {
    return Map.of(
        "count",
            ctx ->
                runs.computeIfAbsent(ctx.triggerId(), k -> new AtomicInteger()).incrementAndGet(),
        "block", ctx -> release.await(),
        "sleepy",
            ctx -> {
              try {
                Thread.sleep(60_000);
              } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
              }
            });
  }

  private KairosExecutor executor(String instance) {
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, instance, "localhost", List.of("count", "block", "sleepy"))
            .withSlotCount(QUEUES);
    KairosExecutor executor =
        closeLater(
            new KairosExecutor(
                redis, ExecutorSettings.of(lease, mq.nameServerAddress()), handlers()));
    executor.start();
    return executor;
  }

  private SlotLease lease(String instance) {
    SlotLease lease =
        closeLater(
            new SlotLease(
                redis,
                SlotLeaseConfig.of(app, instance, "localhost", List.of("count", "block", "sleepy"))
                    .withSlotCount(QUEUES)));
    lease.start();
    return lease;
  }

  private LostTriggerMonitor monitor(
      long term, java.util.function.Consumer<StaleTermException> stale) {
    return monitor(
        term,
        stale,
        new LostMonitorSettings(INTERVAL, Duration.ofSeconds(60), Duration.ofMinutes(5), 100, 10));
  }

  private LostTriggerMonitor monitor(
      long term,
      java.util.function.Consumer<StaleTermException> stale,
      LostMonitorSettings settings) {
    OpenTriggerStore store =
        new OpenTriggerStore(
            redis, Duration.ofMinutes(10), 100_000, Duration.ofSeconds(10), meters);
    return new LostTriggerMonitor(
        term,
        store,
        keys,
        new SlotRegistry(redis)::liveSlots,
        new RocketMqTriggerSender(producer, Duration.ofSeconds(10)),
        System::currentTimeMillis,
        settings,
        stale,
        new GuardMeters(meters));
  }

  private long redisNowMs() {
    return redis.sync().time().get(0).transform(s -> Long.parseLong(s) * 1000);
  }

  /** The job hash, as the API writes it (no due entry: nothing here is scheduled). */
  private String job(String handler) {
    String jobId = app + "-" + handler + "-" + UUID.randomUUID().toString().substring(0, 6);
    JobDefinition job =
        JobDefinition.builder(jobId).app(app).handler(handler).fixedRate(3_600_000).build();
    redis.sync().hset(RedisKeys.job(keys.shardOf(jobId), jobId), JobHash.toHash(job));
    return jobId;
  }

  /**
   * What a node leaves after the broker acknowledged a trigger sent to {@code slot}: the record
   * DISPATCHED, the open-index entry, and the message on the slot's queue.
   */
  private String dispatch(String handler, int slot) throws Exception {
    String jobId = job(handler);
    long fire = redisNowMs();
    String id = jobId + ":" + fire;
    int shard = keys.shardOf(jobId);
    Map<String, String> record = new HashMap<>();
    record.put("id", id);
    record.put("jobId", jobId);
    record.put("fireMs", Long.toString(fire));
    record.put("state", "DISPATCHED");
    record.put("slot", Integer.toString(slot));
    record.put("dispatchedMs", Long.toString(fire));
    record.put("attempt", "1");
    // Claimed under the job's schedule version, as the leader's claim records it.
    record.put(
        "scheduleVersion", redis.sync().hget(RedisKeys.job(shard, jobId), "scheduleVersion"));
    redis.sync().hset(RedisKeys.trigger(shard, id), record);
    redis.sync().zadd(RedisKeys.openTriggers(shard), fire, id);
    TriggerMessage message =
        TriggerMessage.of(
            id, app, handler, fire, 1, "", 0, 1, 0, BlockStrategy.SERIAL_EXECUTION, 1, fire);
    new RocketMqTriggerSender(producer, Duration.ofSeconds(10))
        .send(message, slot)
        .toCompletableFuture()
        .get(20, TimeUnit.SECONDS);
    return id;
  }

  private Map<String, String> record(String triggerId) {
    String jobId = triggerId.substring(0, triggerId.indexOf(':'));
    return redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(jobId), triggerId));
  }

  private String state(String triggerId) {
    return record(triggerId).get("state");
  }

  private boolean open(String triggerId) {
    String jobId = triggerId.substring(0, triggerId.indexOf(':'));
    return redis.sync().zscore(RedisKeys.openTriggers(keys.shardOf(jobId)), triggerId) != null;
  }

  private static void await(String what, BooleanSupplier condition) {
    await(what, WAIT, condition);
  }

  private static void await(String what, Duration wait, BooleanSupplier condition) {
    Poll.until(wait, Duration.ofMillis(20), what, condition::getAsBoolean);
  }

  /** Makes a lease look as if its holder stopped renewing TTL ago (expiry in the past). */
  private void lapse(int slot) throws Exception {
    ObjectMapper json = new ObjectMapper();
    String key = RedisKeys.slots(app);
    ObjectNode lease = (ObjectNode) json.readTree(redis.sync().hget(key, Integer.toString(slot)));
    lease.put("expiresMs", redisNowMs() - 1);
    redis.sync().hset(key, Integer.toString(slot), json.writeValueAsString(lease));
  }

  @Test
  void aPassOverMoreOpenTriggersThanTheReadRateAllowsPausesLongerThanTheInterval()
      throws Exception {
    // Index entries whose records are gone: each is read (and removed) by the next pass.
    String jobId = job("count");
    String index = RedisKeys.openTriggers(keys.shardOf(jobId));
    for (int i = 0; i < 3; i++) {
      redis.sync().zadd(index, 1, jobId + ":" + (1_000 + i));
    }
    // One read a second: a pass that read r entries pauses r seconds instead of 200 ms.
    LostTriggerMonitor monitor =
        closeLater(
            monitor(
                term,
                e -> {},
                new LostMonitorSettings(
                    INTERVAL, Duration.ofSeconds(60), Duration.ofMinutes(5), 100, 10, 1)));
    monitor.start();

    await(
        "a first pass that backs off",
        () -> meters.counter("kairos.lost.pass.backoffs").count() >= 1);
    long seenMs = System.currentTimeMillis();
    double passes = meters.counter("kairos.lost.passes").count();
    double delay = meters.get("kairos.lost.pass.delay").gauge().value();
    assertThat(delay)
        .as("pause after reading at least the 3 entries")
        .isGreaterThanOrEqualTo(3_000);
    assertThat(redis.sync().zscore(index, jobId + ":1000")).as("read and removed").isNull();

    // Entries other tests of this JVM left in the index lengthen the pause: wait for it.
    await(
        "the next pass",
        WAIT.plusMillis((long) delay),
        () -> meters.counter("kairos.lost.passes").count() > passes);
    assertThat(System.currentTimeMillis() - seenMs)
        .as("the next pass waited the longer pause, not the 200 ms interval")
        .isGreaterThanOrEqualTo((long) delay - 500);
  }

  @Test
  void aDispatchedTriggerWhoseSlotLeaseVanishedIsRedispatchedAndRunsExactlyOnce() throws Exception {
    SlotLease dead = lease("dead-instance");
    assertThat(dead.slot()).isZero();
    KairosExecutor survivor = executor("survivor");
    assertThat(survivor.slot()).isEqualTo(1);
    String id = dispatch("count", 0); // nobody consumes queue 0
    dead.close(); // the slot's lease vanishes with the trigger still DISPATCHED to it

    LostTriggerMonitor.PassReport report = monitor(term, e -> {}).pass();

    assertThat(report.redispatched).isGreaterThanOrEqualTo(1);
    assertThat(record(id)).containsEntry("slot", "1").containsEntry("redispatches", "1");
    await("the re-dispatched trigger to succeed", () -> "SUCCESS".equals(state(id)));
    assertThat(runs.get(id)).hasValue(1);
    assertThat(open(id)).isFalse();

    // The slot's next owner drains the original copy: the start claim refuses it.
    KairosExecutor next = executor("next-owner");
    assertThat(next.slot()).isZero();
    await("the original copy to be reported DUPLICATE", () -> next.stats().duplicates() == 1);
    assertThat(next.stats().started()).isZero();
    assertThat(runs.get(id)).hasValue(1);
    assertThat(meters.counter("kairos.lost.redispatched").count()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void aTriggerStillQueuedForItsLiveExecutorIsLeftUntilTheExecutorHasReceivedItsQueue()
      throws Exception {
    SlotLease slow = lease("slow"); // live and hosting the handler; has received nothing yet
    String id = dispatch("count", slow.slot());
    String jobId = id.substring(0, id.indexOf(':'));
    long since = redisNowMs() - 61_000; // last dispatched beyond the 60 s start timeout
    redis.sync().zadd(RedisKeys.openTriggers(keys.shardOf(jobId)), since, id);
    LostTriggerMonitor monitor = monitor(term, e -> {});

    LostTriggerMonitor.PassReport waiting = monitor.pass();

    assertThat(waiting.backlogged).isGreaterThanOrEqualTo(1);
    assertThat(record(id)).containsEntry("state", "DISPATCHED").doesNotContainKey("redispatches");
    assertThat(meters.counter("kairos.lost.backlogged").count()).isGreaterThanOrEqualTo(1);

    // The executor has now received its queue through the dispatch: the message must be gone.
    slow.receivedThrough("count", since);
    SlotRegistry registry = new SlotRegistry(redis);
    await(
        "the progress to reach the lease",
        () ->
            registry.liveSlots(app).stream()
                .anyMatch(s -> s.receivedThrough("count").orElse(0) >= since));

    LostTriggerMonitor.PassReport resent = monitor.pass();

    assertThat(resent.redispatched).isGreaterThanOrEqualTo(1);
    assertThat(record(id))
        .containsEntry("state", "DISPATCHED")
        .containsEntry("slot", Integer.toString(slow.slot()))
        .containsEntry("redispatches", "1");
  }

  @Test
  void aDispatchedTriggerNoLiveExecutorCanTakeEndsNoExecutorAfterTheStartTimeout()
      throws Exception {
    String waiting = dispatch("count", 2); // the app has no executor at all
    String stuck = dispatch("count", 3);
    String jobId = stuck.substring(0, stuck.indexOf(':'));
    // Dispatched 61 s ago: beyond the monitor's 60 s start timeout.
    redis.sync().zadd(RedisKeys.openTriggers(keys.shardOf(jobId)), redisNowMs() - 61_000, stuck);

    monitor(term, e -> {}).pass();

    assertThat(record(stuck))
        .containsEntry("state", "NO_EXECUTOR")
        .containsEntry("message", "no live executor hosts the handler");
    assertThat(open(stuck)).isFalse();
    assertThat(record(waiting)).containsEntry("state", "DISPATCHED");
    assertThat(open(waiting)).isTrue();
    assertThat(meters.counter("kairos.lost.no.executor").count()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void aRunningTriggerWhoseExecutorLeaseLapsedBecomesLostAndItsLateResultIsKeptBesideIt()
      throws Exception {
    KairosExecutor paused = executor("paused");
    String id = dispatch("block", paused.slot());
    await("the trigger to start", () -> "RUNNING".equals(state(id)));
    LostTriggerDuty duty = closeLater(new LostTriggerDuty((t, stale) -> monitor(t, stale)));

    lapse(paused.slot()); // the executor stopped renewing (a pause) and did not release the slot
    long lapsedAt = System.nanoTime();
    duty.onElected(term);
    await("the trigger to be marked LOST", () -> "LOST".equals(state(id)));
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lapsedAt);
    System.out.printf(
        "LOST %d ms after the lease lapsed (monitor interval %s)%n", tookMs, INTERVAL);

    assertThat(record(id)).containsEntry("executor", "paused");
    assertThat(open(id)).isFalse();
    int shard = keys.shardOf(id.substring(0, id.indexOf(':')));
    assertThat(redis.sync().xrevrange(RedisKeys.events(shard), Range.unbounded()))
        .map(StreamMessage::getBody)
        .anySatisfy(
            e -> assertThat(e).containsEntry("triggerId", id).containsEntry("state", "LOST"));

    release.countDown(); // the paused handler wakes up and finishes
    await("the late result to be recorded", () -> record(id).containsKey("lateResult"));
    assertThat(record(id)).containsEntry("state", "LOST");
    assertThat(record(id).get("lateResult")).startsWith("SUCCESS|");
  }

  @Test
  void aStaleLeaderCannotMarkLostOrRedispatch() throws Exception {
    lease("live"); // a live slot that a re-dispatch could go to
    String dispatched = dispatch("count", QUEUES - 1); // a slot nobody holds
    KairosExecutor gone = executor("gone");
    String running = dispatch("block", gone.slot());
    await("the trigger to start", () -> "RUNNING".equals(state(running)));
    lapse(gone.slot());
    fence().raiseAll(term + 10); // a newer leader fenced every shard

    assertThatThrownBy(() -> monitor(term + 5, e -> {}).pass())
        .isInstanceOf(StaleTermException.class);
    AtomicReference<StaleTermException> reported = new AtomicReference<>();
    LostTriggerDuty duty = closeLater(new LostTriggerDuty((t, stale) -> monitor(t, stale)));
    duty.onStaleTerm(reported::set);
    duty.onElected(term + 5);
    await("the stale monitor to report its fence rejection", () -> reported.get() != null);
    await("the stale monitor to stop", () -> duty.monitoringTerm() == 0);

    assertThat(record(running)).containsEntry("state", "RUNNING");
    assertThat(record(dispatched))
        .containsEntry("state", "DISPATCHED")
        .containsEntry("slot", Integer.toString(QUEUES - 1))
        .doesNotContainKey("redispatches");
    assertThat(meters.counter("kairos.lost.redispatched").count()).isZero();
    assertThat(meters.counter("kairos.lost.marked", "state", "LOST").count()).isZero();
    assertThat(meters.counter("kairos.fence.rejections", "op", "lost-monitor").count())
        .isPositive();
  }

  @Test
  void cancellingARunningTriggerInterruptsItsHandlerAndEndsItCancelled() throws Exception {
    KairosExecutor executor = executor("runner");
    String id = dispatch("sleepy", executor.slot());
    await("the trigger to start", () -> "RUNNING".equals(state(id)));
    TriggerCanceller canceller =
        new TriggerCanceller(
            redis, keys, System::currentTimeMillis, Duration.ofMinutes(10), 100_000);

    CancelOutcome outcome = canceller.cancel(id, "ops");

    assertThat(outcome.kind()).isEqualTo(CancelOutcome.Kind.CANCEL_REQUESTED);
    assertThat(outcome.executor()).isEqualTo("runner");
    await("the trigger to end CANCELLED", () -> "CANCELLED".equals(state(id)));
    assertThat(interrupted).isTrue();
    assertThat(record(id).get("message")).startsWith("cancelled by an operator");
    assertThat(record(id)).containsEntry("cancelledBy", "ops").containsKey("cancelRequested");
    assertThat(open(id)).isFalse();
    assertThat(executor.cancelledRuns()).isEqualTo(1);
    assertThat(canceller.cancel(id, "ops").kind()).isEqualTo(CancelOutcome.Kind.ALREADY_FINAL);
  }

  @Test
  void aTriggerCancelledBeforeItStartsNeverStarts() throws Exception {
    String id = dispatch("count", 0); // no executor yet
    TriggerCanceller canceller =
        new TriggerCanceller(
            redis, keys, System::currentTimeMillis, Duration.ofMinutes(10), 100_000);

    assertThat(canceller.cancel(id, "ops").kind()).isEqualTo(CancelOutcome.Kind.CANCELLED);
    assertThat(state(id)).isEqualTo("CANCELLED");
    assertThat(open(id)).isFalse();

    KairosExecutor executor = executor("late-comer");
    assertThat(executor.slot()).isZero();
    await("the copy to be refused", () -> executor.stats().duplicates() == 1);
    assertThat(executor.stats().started()).isZero();
    assertThat(runs).doesNotContainKey(id);
    assertThat(record(id)).containsEntry("state", "CANCELLED").doesNotContainKey("startedMs");
    assertThat(canceller.cancel("no-such-job:1", "ops").kind())
        .isEqualTo(CancelOutcome.Kind.NOT_FOUND);
  }
}
