package dev.kairos.drills.bench;

import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.drills.DrillCluster;
import dev.kairos.drills.DrillExecutor;
import dev.kairos.drills.DrillNode;
import dev.kairos.drills.StartLedger;
import dev.kairos.drills.StartRecorder;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.record.TriggerFields;
import io.lettuce.core.RedisFuture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The cluster {@link ClusterBench} and {@link ScaleBench} measure, started once per run (its shape
 * from their options, {@link ClusterShape}): devinfra's Redis (a child process), ZooKeeper, the
 * RocketMQ NameServer and Broker (inside this JVM), PostgreSQL (its own processes, unless {@code
 * --sync=false}), then the scheduler nodes and executors as child JVMs ({@link DrillCluster}, which
 * runs the nodes with {@code kairos.sync.enabled=true} and the datasource whenever the
 * infrastructure has PostgreSQL). Holds what the rows use: the admin API of a follower, Redis, the
 * start ledger and the CPU meter of every process; and the steps rows share: reading jobs' creation
 * times, deleting a row's jobs until the executors are quiet, draining.
 */
final class BenchCluster implements AutoCloseable {

  static final String BENCH_JVM = "bench-jvm (broker+namesrv+zk)";
  static final String POSTGRES = "postgres";

  private static final Duration START_DEADLINE = Duration.ofSeconds(240);
  private static final Duration QUIET_FOR = Duration.ofSeconds(5);
  private static final Duration QUIET_DEADLINE = Duration.ofSeconds(120);
  private static final Duration SETTLE_DEADLINE = Duration.ofMinutes(10);

  /** The {@code kairos_trigger} column of each trigger record field the bench reads. */
  private static final Map<String, String> HISTORY_COLUMNS =
      Map.of(
          TriggerFields.CLAIMED_MS, "claimed_ms",
          TriggerFields.DISPATCHED_MS, "dispatched_ms",
          TriggerFields.STARTED_MS, "started_ms");

  private final ClusterShape shape;
  private final Path dir;
  private final String id = "bench-" + UUID.randomUUID().toString().substring(0, 6);
  private final AtomicBoolean closed = new AtomicBoolean();
  private EmbeddedInfrastructure infra;
  private KairosRedis redis;
  private RedisKeys keys;
  private DrillCluster cluster;
  private StartLedger ledger;
  private JobApi api;
  private DrillNode front;
  private CpuMeter meter;

  BenchCluster(ClusterShape shape, Path dir) {
    this.shape = shape;
    this.dir = dir.toAbsolutePath();
  }

  /** Starts everything and waits (each with a deadline) until the cluster serves. */
  void start() {
    long began = System.nanoTime();
    infra =
        EmbeddedInfrastructure.builder()
            .workDir(dir.resolve("infra"))
            .redis(RedisMode.STANDALONE)
            .zookeeper(ZkMode.STANDALONE)
            .rocketMq(true)
            .postgres(shape.sync())
            .start();
    redis = KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(30));
    shape.redisConfig().forEach((name, value) -> redis.sync().configSet(name, value));
    // What the first node would write; here so executors can start beside the nodes, which adopt
    // the stored shard count.
    keys = new RedisKeys(ClusterMetadata.initialise(redis, shape.shards()));
    // Created in-process: the executors' own creation goes through a 5 s admin timeout.
    infra
        .rocketMq()
        .createTopic(TopicNames.handlerTopic(id, StartRecorder.HANDLER), shape.queues());
    cluster = new DrillCluster(infra, dir, id, shape.queues(), shape.childJvmOptions());
    for (int i = 0; i < shape.nodes(); i++) {
      cluster.startNode();
    }
    for (int i = 0; i < shape.executors(); i++) {
      cluster.startExecutor();
    }
    cluster.awaitMembers(cluster.nodes(), shape.nodes(), START_DEADLINE);
    DrillNode leader = cluster.awaitLeader(cluster.nodes(), START_DEADLINE);
    for (DrillExecutor executor : cluster.executors()) {
      cluster.awaitExecutorSlot(executor, START_DEADLINE);
    }
    ledger = new StartLedger(redis, keys);
    // Jobs go through a follower when there is one: the leader is busy scanning.
    front = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElse(leader);
    api = new JobApi(front.port(), cluster.adminToken());
    Map<String, Long> pids = new LinkedHashMap<>();
    cluster.nodes().forEach(n -> pids.put(n.name(), n.process().pid()));
    cluster.executors().forEach(e -> pids.put(e.process().name(), e.process().pid()));
    ProcessHandle.current()
        .descendants()
        .filter(BenchCluster::isRedisServer)
        .forEach(p -> pids.put("redis-server", p.pid()));
    if (!pids.containsKey("redis-server")) {
      throw new IllegalStateException("no redis-server among this JVM's child processes");
    }
    if (infra.postgres() != null) {
      pids.put(
          POSTGRES,
          Postmaster.find(
              infra.workDir().resolve("postgres").resolve("data"), infra.postgres().port()));
    }
    pids.put(BENCH_JVM, ProcessHandle.current().pid());
    meter = new CpuMeter(pids, Set.of(POSTGRES), ProcStat.clockTicksPerSecond());
    BenchOut.say(
        "cluster up in %d s: %s leads, jobs created through %s; processes %s; %s",
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began),
        leader.name(),
        front.name(),
        pids,
        infra.postgres() != null
            ? "persistence-sync on (kairos.sync.enabled=true), PostgreSQL "
                + infra.postgres().jdbcUrl()
                + ", measured as the postmaster and all its child processes"
            : "PostgreSQL not started (--sync=false: kairos.sync.enabled=false)");
  }

  /** The executor app of the bench's jobs. */
  String app() {
    return id;
  }

  KairosRedis redis() {
    return redis;
  }

  RedisKeys keys() {
    return keys;
  }

  JobApi api() {
    return api;
  }

  StartLedger ledger() {
    return ledger;
  }

  CpuMeter meter() {
    return meter;
  }

  List<DrillExecutor> executors() {
    return cluster.executors();
  }

  List<DrillNode> nodes() {
    return cluster.nodes();
  }

  /** The node the bench's API calls go to: a follower when there is one. */
  DrillNode front() {
    return front;
  }

  /** The node every node agrees leads and scans (waits up to a minute for one). */
  DrillNode leader() {
    return cluster.awaitLeader(cluster.nodes(), Duration.ofSeconds(60));
  }

  /** PostgreSQL, or null when persistence-sync is off. */
  EmbeddedPostgreSql postgres() {
    return infra.postgres();
  }

  /**
   * {@code dispatchedMs} and {@code startedMs} of each trigger of {@code ids}: from its record in
   * Redis, or, once persistence-sync has compacted the record to a tombstone, from its history row
   * in PostgreSQL; nulls where neither has it.
   */
  Map<String, Long[]> stageTimestamps(Collection<String> ids) {
    return recordTimestamps(ids, TriggerFields.DISPATCHED_MS, TriggerFields.STARTED_MS);
  }

  /**
   * The epoch-ms {@code fields} ({@link #HISTORY_COLUMNS}' keys) of each trigger of {@code ids}, in
   * the order of {@code fields}, as {@link #stageTimestamps} reads them: the record in Redis, else
   * the history row of a compacted one.
   */
  Map<String, Long[]> recordTimestamps(Collection<String> ids, String... fields) {
    Map<String, Long[]> out = new HashMap<>(ledger.timestamps(ids, fields));
    List<String> compacted =
        ids.stream()
            .filter(
                id -> out.get(id) == null || Arrays.stream(out.get(id)).allMatch(v -> v == null))
            .toList();
    if (compacted.isEmpty() || infra.postgres() == null) {
      return out;
    }
    String columns =
        Arrays.stream(fields).map(HISTORY_COLUMNS::get).collect(Collectors.joining(", "));
    try (Connection c = infra.postgres().connect();
        PreparedStatement select =
            c.prepareStatement(
                "SELECT trigger_id, "
                    + columns
                    + " FROM kairos_trigger WHERE trigger_id = ANY (?)")) {
      select.setArray(1, c.createArrayOf("text", compacted.toArray()));
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          Long[] row = new Long[fields.length];
          for (int i = 0; i < fields.length; i++) {
            row[i] = rows.getObject(i + 2, Long.class);
          }
          out.put(rows.getString(1), row);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the history rows of compacted triggers", e);
    }
    return out;
  }

  /** Redis' used_memory, key count and the history sync's backlog now. */
  RedisMemory memory() {
    return RedisMemory.read(redis, keys, shape.sync());
  }

  /**
   * Waits until persistence-sync has written every event so far (no-op without it), so the next row
   * does not pay for this row's history; prints how long that took.
   */
  void settleHistory() {
    if (!shape.sync()) {
      return;
    }
    long began = System.nanoTime();
    SyncBacklog[] last = {SyncBacklog.read(redis, keys)};
    if (last[0].caughtUp()) {
      return;
    }
    BenchOut.say("history sync %s: waiting for it before the next row", last[0]);
    Poll.until(
        SETTLE_DEADLINE,
        Duration.ofSeconds(1),
        "persistence-sync to write every event (last: " + last[0] + ")",
        () -> (last[0] = SyncBacklog.read(redis, keys)).caughtUp());
    BenchOut.say(
        "history sync caught up in %.1f s; Redis now %s",
        (System.nanoTime() - began) / 1e9, memory());
  }

  /** Creation time of every job (the FIXED_RATE anchor), read from its hash in Redis. */
  Map<String, Long> createdMs(List<String> ids) {
    Map<String, RedisFuture<String>> reads = new LinkedHashMap<>();
    for (String job : ids) {
      reads.put(
          job, redis.async().hget(RedisKeys.job(keys.shardOf(job), job), JobFields.CREATED_MS));
    }
    Map<String, Long> created = new LinkedHashMap<>();
    reads.forEach(
        (job, read) -> {
          try {
            created.put(job, Long.parseLong(read.get(30, TimeUnit.SECONDS)));
          } catch (Exception e) {
            throw new IllegalStateException("cannot read createdMs of job " + job, e);
          }
        });
    return created;
  }

  /**
   * Polls the start logs until every expected fire started (or was claimed), or the cap passes: a
   * fire with no start by then is missed.
   */
  StartLedger.Outcome drain(List<String> expected, long capEpochMs) throws InterruptedException {
    while (true) {
      StartLedger.Outcome outcome = ledger.observe(expected, cluster.executors());
      boolean complete = outcome.missed().isEmpty() && outcome.claimedNotLogged().isEmpty();
      if (complete || System.currentTimeMillis() >= capEpochMs) {
        return outcome;
      }
      Thread.sleep(2_000);
    }
  }

  /** Deletes {@code ids} through the API and waits until no handler start is logged for 5 s. */
  void removeJobs(List<String> ids) {
    if (ids.isEmpty()) {
      return;
    }
    long began = System.nanoTime();
    chunks(ids).forEach(api::deleteJobs);
    long[] last = {-1, System.nanoTime()};
    Poll.until(
        QUIET_DEADLINE,
        Duration.ofMillis(500),
        "no handler start for " + QUIET_FOR.toSeconds() + " s after deleting the row's jobs",
        () -> {
          long size = startLogBytes();
          if (size != last[0]) {
            last[0] = size;
            last[1] = System.nanoTime();
            return false;
          }
          return System.nanoTime() - last[1] >= QUIET_FOR.toNanos();
        });
    BenchOut.say(
        "deleted %d jobs through the API; quiet after %.1f s",
        ids.size(), (System.nanoTime() - began) / 1e9);
  }

  /** Bytes in every executor's start log: grows by one line per handler start. */
  long startLogBytes() {
    long total = 0;
    for (DrillExecutor e : cluster.executors()) {
      try {
        total += Files.exists(e.startLog()) ? Files.size(e.startLog()) : 0;
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }
    return total;
  }

  /** {@code ids} in calls of at most {@link JobApi#MAX_BATCH}. */
  static List<List<String>> chunks(List<String> ids) {
    List<List<String>> calls = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += JobApi.MAX_BATCH) {
      calls.add(ids.subList(from, Math.min(ids.size(), from + JobApi.MAX_BATCH)));
    }
    return calls;
  }

  /** devinfra extracts the binary as {@code redis-server-<version>-<os>-<arch>}. */
  private static boolean isRedisServer(ProcessHandle p) {
    return p.info()
        .command()
        .map(c -> Path.of(c).getFileName().toString().startsWith("redis-server"))
        .orElse(false);
  }

  /**
   * Kills the child JVMs, then closes Redis and the infrastructure (PostgreSQL included); close
   * twice is a no-op.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      try {
        if (redis != null) {
          redis.close();
        }
      } finally {
        if (infra != null) {
          infra.close();
        }
      }
    }
  }
}
