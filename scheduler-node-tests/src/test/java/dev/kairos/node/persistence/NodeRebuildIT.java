package dev.kairos.node.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.record.TriggerFields;
import dev.kairos.sync.rebuild.RebuildKeys;
import dev.kairos.sync.worker.SyncHealth;
import dev.kairos.sync.worker.SyncLagSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Whole scheduler nodes (Spring contexts) against real Redis Cluster, ZooKeeper, RocketMQ and
 * PostgreSQL: Redis data lost and restored from PostgreSQL, PostgreSQL down at start and under
 * load. persistence-sync's component ITs cover the rebuild's arithmetic; these prove the node
 * wiring: the shard gate before the scan, and that PostgreSQL never stops firing.
 */
@RealInfra(
    redis = RedisMode.CLUSTER,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class NodeRebuildIT {

  private static final String APP = "rebuild";
  private static final String HANDLER = "tick";
  private static final int SHARDS = 64;
  private static final int QUEUES = 2;

  private final EmbeddedInfrastructure infra;
  private final EmbeddedRedisCluster cluster;
  private final EmbeddedPostgreSql pg;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  /** Trigger id → when its handler started (wall clock of this JVM, as Redis TIME's host). */
  private final Map<String, Long> started = new java.util.concurrent.ConcurrentHashMap<>();

  private KairosRedis redis;
  private String zkRoot;

  NodeRebuildIT(EmbeddedInfrastructure infra) {
    this.infra = infra;
    this.cluster = infra.redisCluster();
    this.pg = infra.postgres();
  }

  @BeforeEach
  void setUp() throws Exception {
    flushAll();
    try (Connection c = pg.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA public CASCADE");
      st.execute("CREATE SCHEMA public");
    }
    infra.rocketMq().createTopic(TopicNames.handlerTopic(APP, HANDLER), QUEUES);
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    zkRoot = "/kairos-rebuild-" + UUID.randomUUID();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (!pg.isRunning()) {
      pg.start();
    }
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    closeables.clear();
    redis.close();
  }

  @Test
  void flushedRedisAndPostgresDownAtRestartNodeSchedulesAndOldJobsReturnWhenPostgresDoes()
      throws Exception {
    ConfigurableApplicationContext first = node("rb-first");
    List<String> old = createJobs(first, "old-", 20);
    await(Duration.ofSeconds(90), "20 jobs in PostgreSQL", () -> pgCount("kairos_job") == 20);
    first.close();

    flushAll();
    pg.stop();
    ConfigurableApplicationContext second = node("rb-second"); // starts: PostgreSQL is no gate
    startExecutor();
    long restartMs = System.currentTimeMillis();
    List<String> fresh = createJobs(second, "fresh-", 5);
    for (String id : fresh) {
      awaitRanAfter(id, restartMs, "job " + id + " created while PostgreSQL is down");
    }
    for (String id : old) {
      assertThat(exists(id)).as("%s cannot come back before PostgreSQL does", id).isFalse();
    }

    pg.start();
    for (String id : old) {
      await(Duration.ofSeconds(60), id + " restored", () -> exists(id));
      double due = redis.sync().zscore(RedisKeys.due(shardOf(id)), id);
      assertThat((long) due % 1_000).as("%s next fire on a whole second", id).isZero();
      assertThat((long) due).as("%s next fire from now, not the past", id).isGreaterThan(restartMs);
    }
    long restoredMs = System.currentTimeMillis();
    for (String id : old) {
      awaitRanAfter(id, restoredMs, "restored job " + id);
    }
    // Sync caught up: every job is in PostgreSQL, and the triggers fired so far are there.
    await(Duration.ofSeconds(90), "25 jobs in PostgreSQL", () -> pgCount("kairos_job") == 25);
    List<String> ran = new ArrayList<>();
    for (String id : fresh) {
      ran.addAll(ranTriggers(id, restartMs));
    }
    // Fires that ended while PostgreSQL was down reach the history once it is back.
    await(
        Duration.ofSeconds(90),
        "the ended fires in PostgreSQL as SUCCESS",
        () -> pgSucceeded(ran) == ran.size());
  }

  @Test
  void twoNodesStartingTogetherOnAnEmptyRedisRestoreEachJobOnce() throws Exception {
    ConfigurableApplicationContext first = node("rb-seed");
    createJobs(first, "pair-", 30);
    await(Duration.ofSeconds(90), "30 jobs in PostgreSQL", () -> pgCount("kairos_job") == 30);
    first.close();
    flushAll();

    // Spring Boot configures Logback once per application, and two applications doing it at once
    // reset the JVM's one LoggerContext under each other ("no conversion supplier for [wEx]").
    // The pair logs through what the seed node configured; their starts and rebuilds still race.
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    List<MeterRegistry> meters;
    try {
      CompletableFuture<ConfigurableApplicationContext> a =
          CompletableFuture.supplyAsync(() -> node("rb-pair-a"));
      CompletableFuture<ConfigurableApplicationContext> b =
          CompletableFuture.supplyAsync(() -> node("rb-pair-b"));
      meters = List.of(a.get().getBean(MeterRegistry.class), b.get().getBean(MeterRegistry.class));
    } finally {
      System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
    }
    await(
        Duration.ofSeconds(90),
        "every shard completed by one of the two nodes",
        () -> sum(meters, "kairos.rebuild.shards") == SHARDS);
    assertThat(sum(meters, "kairos.rebuild.jobs.restored"))
        .as("each job restored once")
        .isEqualTo(30);
    for (int s = 0; s < SHARDS; s++) {
      assertThat(redis.sync().get(RebuildKeys.initialised(s))).doesNotStartWith("provisional");
    }
  }

  @Test
  void flushingOneMasterWhileRunningRebuildsOnlyItsShardsAndTheirJobsFireAgain() throws Exception {
    ConfigurableApplicationContext node = node("rb-one");
    List<String> ids = createJobs(node, "one-", 40);
    await(Duration.ofSeconds(90), "40 jobs in PostgreSQL", () -> pgCount("kairos_job") == 40);
    int victim = cluster.nodeOwning(RebuildKeys.initialised(0));
    TreeSet<Integer> lost = new TreeSet<>();
    for (int s = 0; s < SHARDS; s++) {
      if (cluster.nodeOwning(RebuildKeys.initialised(s)) == victim) {
        lost.add(s);
      }
    }
    List<String> onVictim = ids.stream().filter(id -> lost.contains(shardOf(id))).toList();
    assertThat(onVictim).isNotEmpty();
    MeterRegistry meters = node.getBean(MeterRegistry.class);
    // The empty Redis of setUp was marked provisional and completed once PostgreSQL answered.
    await(
        Duration.ofSeconds(60),
        "the new cluster's provisional shards completed",
        () -> meters.counter("kairos.rebuild.shards").count() == SHARDS);
    double restoredBefore = meters.counter("kairos.rebuild.jobs.restored").count();

    cluster.flushNode(victim);
    long flushedMs = System.currentTimeMillis();
    await(
        Duration.ofSeconds(60),
        "the victim's shards rebuilt",
        () -> meters.counter("kairos.rebuild.shards").count() == SHARDS + lost.size());
    assertThat(meters.counter("kairos.rebuild.jobs.restored").count() - restoredBefore)
        .as("only the lost master's jobs restored")
        .isEqualTo(onVictim.size());
    for (String id : onVictim) {
      awaitFiredAfter(id, flushedMs, "rebuilt job " + id);
    }
  }

  @Test
  void postgresStoppedUnderLoadTriggersKeepFiringAndTheBacklogDrains() throws Exception {
    ConfigurableApplicationContext node = node("rb-load");
    startExecutor();
    long createdMs = System.currentTimeMillis();
    List<String> ids = createJobs(node, "load-", 200);
    Thread.sleep(3_000); // steady state before the outage: part of the scenario, not a wait
    long stopMs = System.currentTimeMillis();
    pg.stop();
    Thread.sleep(10_000); // the outage's length
    long startMs = System.currentTimeMillis();
    pg.start();

    // Every fire of the outage ran, none before its time (the trigger path never touches
    // PostgreSQL).
    long from = (stopMs / 1_000 + 1) * 1_000;
    long to = startMs / 1_000 * 1_000;
    await(
        Duration.ofSeconds(30),
        "every fire of the outage ran",
        () ->
            ids.stream()
                .allMatch(
                    id -> {
                      for (long fire = from; fire <= to; fire += 1_000) {
                        if (!started.containsKey(id + ":" + fire)) {
                          return false;
                        }
                      }
                      return true;
                    }));
    List<Long> lateness = new ArrayList<>();
    for (String id : ids) {
      for (long fire = from; fire <= to; fire += 1_000) {
        long ran = started.get(id + ":" + fire);
        assertThat(ran).as("%s:%d never early", id, fire).isGreaterThanOrEqualTo(fire);
        lateness.add(ran - fire);
      }
    }
    Collections.sort(lateness);
    System.out.printf(
        "PG outage %d ms, %d fires: start lateness p50 %d ms, p99 %d ms, max %d ms%n",
        startMs - stopMs,
        lateness.size(),
        lateness.get(lateness.size() / 2),
        lateness.get((int) Math.ceil(lateness.size() * 0.99) - 1),
        lateness.get(lateness.size() - 1));

    JobStore jobs = node.getBean(JobStore.class);
    for (String id : ids) {
      jobs.disable(id);
    }
    // What ran until the disable: fires already sent (up to the pre-dispatch lead ahead) are
    // dropped when they come due, and those still on a wheel when they are taken.
    long disabledMs = System.currentTimeMillis();
    SyncHealth health = node.getBean(SyncHealth.class);
    await(
        Duration.ofSeconds(120),
        "the backlog drained",
        () -> {
          SyncLagSnapshot lag = health.snapshot();
          return lag.sampledAtMs() > System.currentTimeMillis() - 2_000
              && lag.totalPending() == 0
              && lag.maxLagMs() == 0
              && pgSucceeded(ranBefore(ids, disabledMs)) == ranBefore(ids, disabledMs).size();
        });
    // The history holds every run, the outage's included, with its whole life: one row per
    // trigger, written from its end.
    List<String> ran = ranBefore(ids, disabledMs);
    Map<String, Long[]> inPg = new HashMap<>();
    try (Connection c = pg.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT trigger_id, claimed_ms, dispatched_ms, started_ms, ended_ms"
                    + " FROM kairos_trigger WHERE job_id LIKE 'load-%' AND state = 'SUCCESS'")) {
      while (rs.next()) {
        inPg.put(
            rs.getString(1),
            new Long[] {
              rs.getObject(2, Long.class),
              rs.getObject(3, Long.class),
              rs.getObject(4, Long.class),
              rs.getObject(5, Long.class)
            });
      }
    }
    assertThat(inPg.keySet()).containsAll(ran);
    for (String id : ran) {
      Long[] times = inPg.get(id);
      assertThat(times).as("claim, dispatch, start and end of %s", id).doesNotContainNull();
      assertThat(times[2])
          .as("%s started at or after its fire", id)
          .isGreaterThanOrEqualTo(Long.parseLong(id.substring(id.lastIndexOf(':') + 1)));
      assertThat(times[3]).isGreaterThanOrEqualTo(times[2]);
    }
    // Once synced, a success keeps only its tombstone in Redis.
    String sample = ran.get(0);
    String sampleJob = sample.substring(0, sample.lastIndexOf(':'));
    int shard = shardOf(sampleJob);
    await(
        Duration.ofSeconds(30),
        "a synced success compacted to its tombstone",
        () ->
            redis.sync().exists(RedisKeys.trigger(shard, sample)) == 0
                && "SUCCESS"
                    .equals(
                        redis
                            .sync()
                            .hget(
                                RedisKeys.ended(
                                    shard,
                                    Long.parseLong(sample.substring(sample.lastIndexOf(':') + 1))),
                                sample)));
  }

  /** The triggers of {@code ids} whose handler ran before {@code untilMs}. */
  private List<String> ranBefore(List<String> ids, long untilMs) {
    List<String> ran = new ArrayList<>();
    for (String id : ids) {
      for (String t : ranTriggers(id, 0)) {
        if (started.get(t) < untilMs) {
          ran.add(t);
        }
      }
    }
    return ran;
  }

  // ---------------------------------------------------------------------------------------------

  private ConfigurableApplicationContext node(String name) {
    Map<String, String> p = new java.util.LinkedHashMap<>(infra.springProperties());
    p.put("server.port", "0");
    p.put("kairos.node.name", name);
    p.put("kairos.zookeeper.root-path", zkRoot);
    p.put("kairos.cluster.secret", "rebuild-secret");
    p.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    p.put("kairos.sync.consumer", name);
    p.put("kairos.sync.poll-interval", "50ms");
    p.put("kairos.sync.shard-check-interval", "200ms");
    p.put("kairos.sync.retry-initial", "200ms");
    p.put("kairos.sync.retry-max", "1s");
    p.put("kairos.sync.lag-check-interval", "500ms");
    p.put("spring.datasource.hikari.connection-timeout", "1000");
    String[] args =
        p.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    ConfigurableApplicationContext context =
        new org.springframework.boot.builder.SpringApplicationBuilder(
                dev.kairos.node.KairosNodeApplication.class)
            .run(args);
    synchronized (closeables) {
      closeables.add(context);
    }
    return context;
  }

  /**
   * A real executor of the app in slot 0 (the jobs route FIRST): the fires run and end, and their
   * ends are the history persistence-sync writes. It records when each handler started.
   */
  private void startExecutor() {
    KairosExecutor executor =
        new KairosExecutor(
            redis,
            ExecutorSettings.of(
                SlotLeaseConfig.of(
                        APP, "rebuild-exec-" + UUID.randomUUID(), "rebuild-it", List.of(HANDLER))
                    .withSlotCount(QUEUES),
                infra.rocketMq().nameServerAddress()),
            Map.of(
                HANDLER, ctx -> started.putIfAbsent(ctx.triggerId(), System.currentTimeMillis())));
    executor.start();
    closeables.add(executor);
  }

  private List<String> createJobs(ConfigurableApplicationContext node, String prefix, int n) {
    JobStore jobs = node.getBean(JobStore.class);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = prefix + i;
      jobs.create(JobDefinition.builder(id).app(APP).handler(HANDLER).cron("* * * * * *").build());
      ids.add(id);
    }
    return ids;
  }

  private void flushAll() {
    for (int i = 0; i < cluster.size(); i++) {
      cluster.flushNode(i);
    }
  }

  private int shardOf(String jobId) {
    return new RedisKeys(SHARDS).shardOf(jobId);
  }

  private boolean exists(String jobId) {
    return redis.sync().exists(RedisKeys.job(shardOf(jobId), jobId)) == 1;
  }

  /** Trigger hashes of an every-second job with fire times in [fromMs, toMs], by fire time. */
  private Map<Long, Map<String, String>> triggersByFire(String jobId, long fromMs, long toMs) {
    int s = shardOf(jobId);
    Map<Long, Map<String, String>> out = new HashMap<>();
    for (long fire = (fromMs + 999) / 1_000 * 1_000; fire <= toMs; fire += 1_000) {
      Map<String, String> hash = redis.sync().hgetall(RedisKeys.trigger(s, jobId + ":" + fire));
      if (!hash.isEmpty()) {
        out.put(fire, hash);
      }
    }
    return out;
  }

  /** The job's scheduled fires after {@code afterMs} whose handler ran (this JVM's executor). */
  private List<String> ranTriggers(String jobId, long afterMs) {
    return started.keySet().stream()
        .filter(id -> id.startsWith(jobId + ":"))
        .filter(id -> Long.parseLong(id.substring(jobId.length() + 1)) > afterMs)
        .sorted()
        .toList();
  }

  private void awaitRanAfter(String jobId, long afterMs, String what) {
    await(
        Duration.ofSeconds(30),
        what + " ran after " + afterMs,
        () -> !ranTriggers(jobId, afterMs).isEmpty());
  }

  /** Fired: the node took it off its wheel and either published it or found no executor. */
  private void awaitFiredAfter(String jobId, long afterMs, String what) {
    await(
        Duration.ofSeconds(30),
        what + " fired after " + afterMs,
        () ->
            triggersByFire(jobId, afterMs + 1, System.currentTimeMillis() + 1_000).values().stream()
                .anyMatch(
                    t ->
                        List.of("DISPATCHED", "NO_EXECUTOR").contains(t.get(TriggerFields.STATE))));
  }

  private long pgCount(String table) {
    try (Connection c = pg.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      return -1; // not migrated yet, or PostgreSQL restarting
    }
  }

  private long pgSucceeded(List<String> triggerIds) {
    try (Connection c = pg.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM kairos_trigger WHERE state = 'SUCCESS'"
                    + " AND trigger_id = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", triggerIds.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      return -1;
    }
  }

  private static double sum(List<MeterRegistry> registries, String counter) {
    return registries.stream().mapToDouble(r -> r.counter(counter).count()).sum();
  }

  private static void await(Duration timeout, String what, java.util.function.BooleanSupplier ok) {
    Poll.until(timeout, Duration.ofMillis(100), what, ok::getAsBoolean);
  }
}
