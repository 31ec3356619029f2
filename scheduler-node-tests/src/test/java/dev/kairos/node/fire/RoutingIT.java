package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
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
import dev.kairos.mq.executor.JobContext;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Routing strategies and SHARDING_BROADCAST over real slot leases, a real fire path and real
 * executors: three {@link KairosExecutor} instances hold slots 1-3 of the app; slot 0 holds a lease
 * written by hand that is live but stale (renewed 50 s ago out of an 80 s TTL) and busy, and that
 * nobody consumes. The trigger record's {@code slot} (written when the broker acknowledged the
 * send) shows where each fire went.
 */
@RealInfra(redis = RedisMode.STANDALONE, rocketMq = true)
class RoutingIT {

  private static final int QUEUES = 4;
  private static final String HANDLER = "h";
  private static final Duration DEADLINE = Duration.ofSeconds(40);

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final String app = "route-" + UUID.randomUUID().toString().substring(0, 8);
  private final String node = app + "-node";
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  /** Trigger id → the slots of the executors that started it. */
  private final Map<String, List<Integer>> starts = new ConcurrentHashMap<>();

  /** Trigger id → shard index/total the handler saw. */
  private final Map<String, String> shards = new ConcurrentHashMap<>();

  private final List<AutoCloseable> closing = new ArrayList<>();
  private RedisKeys keys;
  private JobStore jobs;
  private ClusterClock clock;
  private DueFireScanner scanner;
  private long term;
  private SlotRouter router;

  RoutingIT(EmbeddedRocketMq mq, EmbeddedRedis embedded) {
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
      admin.ensureTopic(TopicNames.handlerTopic(app, HANDLER), QUEUES, Duration.ofSeconds(40));
      admin.ensureTopic(TopicNames.RESULTS, 1, Duration.ofSeconds(40));
    }
    // Slot 0: live (expires in 30 s) but stale (renewed 50 s ago of an 80 s TTL) and busy.
    long now = clock.nowMs();
    redis
        .sync()
        .hset(
            RedisKeys.slots(app),
            "0",
            String.format(
                "{\"instanceId\":\"ghost\",\"host\":\"nowhere\",\"handlers\":[\"%s\"],\"slot\":0,"
                    + "\"lastRenewalMs\":%d,\"expiresMs\":%d,\"busy\":true}",
                HANDLER, now - 50_000, now + 30_000));
    for (int i = 1; i <= 3; i++) {
      int slot = i;
      SlotLeaseConfig lease =
          SlotLeaseConfig.of(app, app + "-exec-" + i, "test", List.of(HANDLER))
              .withSlotCount(QUEUES);
      KairosExecutor executor =
          new KairosExecutor(
              redis,
              ExecutorSettings.of(lease, mq.nameServerAddress()),
              Map.of(HANDLER, ctx -> record(ctx, slot)));
      executor.start();
      closing.add(executor);
      assertThat(executor.slot()).isEqualTo(slot);
    }

    DefaultMQProducer producer = new DefaultMQProducer("route_producer_" + app);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName(node);
    producer.start();
    closing.add(producer::shutdown);
    NodeWheelStore store =
        new NodeWheelStore(redis, keys, node, 100_000, Duration.ofSeconds(5), meters);
    router = FirePathFixture.leaseRouter(redis);
    NodeFirePath path =
        FirePathFixture.path(
            store,
            router,
            new RocketMqTriggerSender(producer, Duration.ofSeconds(5)),
            clock,
            () -> term,
            FirePathFixture.settings(
                Duration.ofMillis(500), Duration.ofSeconds(5), Duration.ofSeconds(30)),
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

  private void record(JobContext ctx, int slot) {
    starts.computeIfAbsent(ctx.triggerId(), k -> new CopyOnWriteArrayList<>()).add(slot);
    shards.put(ctx.triggerId(), ctx.shardIndex() + "/" + ctx.shardTotal());
  }

  @Test
  void eachStrategyRoutesAsDocumentedAndBroadcastStartsEveryShardOnce() throws Exception {
    long fire = (clock.nowMs() / 1_000 + 3) * 1_000;
    Map<RoutingStrategy, String> oneShots = new java.util.EnumMap<>(RoutingStrategy.class);
    for (RoutingStrategy s :
        List.of(
            RoutingStrategy.FIRST,
            RoutingStrategy.LAST,
            RoutingStrategy.FAILOVER,
            RoutingStrategy.BUSYOVER,
            RoutingStrategy.SHARDING_BROADCAST)) {
      String id = app + "-" + s.name().toLowerCase().replace('_', '-');
      jobs.create(
          JobDefinition.builder(id).app(app).handler(HANDLER).routing(s).oneShot(fire).build());
      oneShots.put(s, id);
    }
    // Four consecutive fires of each rotating job, one per second from the same fire second.
    Map<RoutingStrategy, String> rotating = new java.util.EnumMap<>(RoutingStrategy.class);
    for (RoutingStrategy s :
        List.of(
            RoutingStrategy.ROUND,
            RoutingStrategy.LEAST_FREQUENTLY_USED,
            RoutingStrategy.LEAST_RECENTLY_USED,
            RoutingStrategy.CONSISTENT_HASH,
            RoutingStrategy.RANDOM)) {
      String id = app + "-" + s.name().toLowerCase().replace('_', '-');
      jobs.create(
          JobDefinition.builder(id)
              .app(app)
              .handler(HANDLER)
              .routing(s)
              .cron("* * * * * *")
              .build());
      rotating.put(s, id);
    }
    List<Long> seconds = List.of(fire, fire + 1_000, fire + 2_000, fire + 3_000);
    List<String> expected = new ArrayList<>();
    oneShots.values().forEach(id -> expected.add(id + ":" + fire));
    rotating.values().forEach(id -> seconds.forEach(s -> expected.add(id + ":" + s)));

    await("every fire dispatched", () -> scanAnd(() -> expected.stream().allMatch(this::sent)));
    rotating.values().forEach(jobs::disable);

    assertThat(slotOf(oneShots.get(RoutingStrategy.FIRST) + ":" + fire)).isEqualTo("0");
    assertThat(slotOf(oneShots.get(RoutingStrategy.LAST) + ":" + fire)).isEqualTo("3");
    assertThat(slotOf(oneShots.get(RoutingStrategy.FAILOVER) + ":" + fire))
        .as("slot 0's lease is stale")
        .isEqualTo("1");
    assertThat(slotOf(oneShots.get(RoutingStrategy.BUSYOVER) + ":" + fire))
        .as("slot 0 is busy")
        .isEqualTo("1");
    for (RoutingStrategy s :
        List.of(
            RoutingStrategy.ROUND,
            RoutingStrategy.LEAST_FREQUENTLY_USED,
            RoutingStrategy.LEAST_RECENTLY_USED)) {
      List<String> visited =
          seconds.stream().map(sec -> slotOf(rotating.get(s) + ":" + sec)).toList();
      assertThat(visited).as("%s over four fires", s).containsExactlyInAnyOrder("0", "1", "2", "3");
    }
    List<String> hashed =
        seconds.stream()
            .map(sec -> slotOf(rotating.get(RoutingStrategy.CONSISTENT_HASH) + ":" + sec))
            .distinct()
            .toList();
    assertThat(hashed).as("CONSISTENT_HASH keeps the job on one slot").hasSize(1);
    seconds.forEach(
        sec ->
            assertThat(slotOf(rotating.get(RoutingStrategy.RANDOM) + ":" + sec))
                .isIn("0", "1", "2", "3"));

    // Broadcast: four shards fixed on the parent, shards 1-3 run once each on their executor.
    String parent = oneShots.get(RoutingStrategy.SHARDING_BROADCAST) + ":" + fire;
    Map<String, String> parentRecord = record(parent);
    assertThat(parentRecord)
        .containsEntry("shardTotal", "4")
        .containsEntry("shardSlots", "0,1,2,3");
    assertThat(parentRecord.get("state")).isEqualTo("DISPATCHED");
    for (int i = 1; i <= 3; i++) {
      String shard = parent + "#" + i + "/4";
      await(shard + " finished", () -> "SUCCESS".equals(record(shard).get("state")));
      assertThat(starts.get(shard)).as("started once, on slot %d", i).containsExactly(i);
      assertThat(shards.get(shard)).isEqualTo(i + "/4");
      assertThat(record(shard)).containsEntry("parent", parent).containsEntry("slot", "" + i);
    }
    String ghostShard = parent + "#0/4";
    assertThat(record(ghostShard))
        .as("shard 0 waits in the queue of slot 0, whose executor is gone")
        .containsEntry("state", "DISPATCHED")
        .containsEntry("slot", "0");
    assertThat(starts).doesNotContainKey(ghostShard).doesNotContainKey(parent);
    int shard = keys.shardOf(new dev.kairos.core.model.TriggerId(parent).jobId());
    assertThat(redis.sync().zscore(RedisKeys.openTriggers(shard), parent))
        .as("the parent never runs, so it is not watched as an open trigger")
        .isNull();
    assertThat(redis.sync().zscore(RedisKeys.openTriggers(shard), ghostShard))
        .as("an unstarted shard is open")
        .isNotNull();
    assertThat(starts.values()).allSatisfy(s -> assertThat(s).hasSize(1));
  }

  /**
   * "Trigger now" on a chosen slot: the job routes FIRST (slot 0), the trigger goes where it was
   * asked to; a chosen slot without a live lease waits for one within the no-executor grace, and
   * one that never gets a lease ends NO_EXECUTOR naming the slot.
   */
  @Test
  void aTriggerNowOnAChosenSlotGoesToThatSlotOrWaitsForItLikeAFireWithoutExecutor()
      throws Exception {
    String id = app + "-chosen";
    jobs.create(
        JobDefinition.builder(id)
            .app(app)
            .handler(HANDLER)
            .routing(RoutingStrategy.FIRST)
            .schedule(dev.kairos.core.model.ScheduleType.API, "")
            .build());
    dev.kairos.protocol.adhoc.AdhocTriggers adhoc =
        new dev.kairos.protocol.adhoc.AdhocTriggers(redis, keys, clock);

    String onTwo =
        adhoc.triggerNow(id, java.util.Optional.empty(), java.util.OptionalInt.of(2)).value();
    await(
        onTwo + " finished on slot 2",
        () -> scanAnd(() -> "SUCCESS".equals(record(onTwo).get("state"))));
    assertThat(starts.get(onTwo)).as("started once, by the executor of slot 2").containsExactly(2);
    assertThat(record(onTwo)).containsEntry("slot", "2").containsEntry("targetSlot", "2");
    String routed = adhoc.triggerNow(id, java.util.Optional.empty()).value();
    await(routed + " dispatched", () -> scanAnd(() -> sent(routed)));
    assertThat(slotOf(routed)).as("without a chosen slot the job's FIRST decides").isEqualTo("0");

    // Slot 0 loses its lease: a trigger asking for it waits instead of going elsewhere ...
    String lease = redis.sync().hget(RedisKeys.slots(app), "0");
    redis.sync().hdel(RedisKeys.slots(app), "0");
    router.invalidate(app); // the node re-reads the app's slots instead of its 200 ms cache
    String onZero =
        adhoc.triggerNow(id, java.util.Optional.empty(), java.util.OptionalInt.of(0)).value();
    await(onZero + " claimed", () -> scanAnd(() -> record(onZero).get("state") != null));
    // ... for the grace (8 s): well within it, it is still waiting in the node's inflight set.
    Poll.holds(
        Duration.ofSeconds(2),
        Duration.ofMillis(100),
        onZero + " waits for slot 0",
        () -> assertThat(record(onZero).get("state")).isEqualTo("CLAIMED"));
    // A lease for slot 0 appears (nobody consumes it): the trigger goes there, nowhere else.
    long now = clock.nowMs();
    redis
        .sync()
        .hset(
            RedisKeys.slots(app),
            "0",
            lease.replaceAll("\"expiresMs\":\\d+", "\"expiresMs\":" + (now + 30_000)));
    await(onZero + " dispatched to slot 0", () -> "DISPATCHED".equals(record(onZero).get("state")));
    assertThat(slotOf(onZero)).isEqualTo("0");
    assertThat(starts).doesNotContainKey(onZero);

    // A slot that never has a lease: NO_EXECUTOR after the grace, like a fire without executor.
    String onSix =
        adhoc.triggerNow(id, java.util.Optional.empty(), java.util.OptionalInt.of(6)).value();
    await(
        onSix + " ended NO_EXECUTOR",
        () -> scanAnd(() -> "NO_EXECUTOR".equals(record(onSix).get("state"))));
    assertThat(record(onSix).get("message")).contains("in slot 6");
    assertThat(starts).doesNotContainKey(onSix);
  }

  private boolean scanAnd(BooleanSupplier condition) {
    scanner.scan(term);
    return condition.getAsBoolean();
  }

  private boolean sent(String triggerId) {
    String state = record(triggerId).get("state");
    return state != null && !state.equals("CLAIMED");
  }

  private String slotOf(String triggerId) {
    return record(triggerId).get("slot");
  }

  private Map<String, String> record(String triggerId) {
    return redis
        .sync()
        .hgetall(
            RedisKeys.trigger(
                keys.shardOf(new dev.kairos.core.model.TriggerId(triggerId).jobId()), triggerId));
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(DEADLINE, Duration.ofMillis(100), what, condition::getAsBoolean);
  }
}
