package dev.kairos.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.SchemaMigrator;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncConfig;
import dev.kairos.sync.worker.SyncFaults;
import dev.kairos.sync.worker.SyncHealth;
import dev.kairos.sync.worker.SyncLagSnapshot;
import dev.kairos.sync.worker.SyncMetrics;
import io.lettuce.core.RedisFuture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * persistence-sync throughput and steady-state lag (issue #3 "Measure"): a real {@link
 * StreamSyncWorker} (one node's consumer, default settings) drains the shard streams of an embedded
 * 3-master Redis Cluster (64 shards) into an embedded PostgreSQL.
 *
 * <p>Each fire is the two stream entries the fire path appends — {@code TRIGGER_CLAIMED} (as {@code
 * claim_fires.lua} writes it) and {@code TRIGGER_UPDATED DISPATCHED} (as {@code
 * ack_dispatched.lua}) — XADDed pipelined at the target rate, so the worker sees the real event mix
 * without the scan and the broker competing for the two cores. Per rate: events/s applied to
 * PostgreSQL, and the lag ({@link SyncHealth}: age of the oldest unacknowledged entry, entries
 * pending) sampled every second after a warm-up; then the time to drain what is left. A last row
 * pre-loads a backlog with the worker stopped and times its drain: the worker's ceiling.
 *
 * <p>Arguments: {@code [seconds per rate, default 20] [fires/s list, default 1000,10000] [backlog
 * fires, default 100000]}.
 */
public final class SyncBench {

  private static final int SHARDS = RedisKeys.DEFAULT_SHARDS;
  private static final int JOBS = 1_000;
  private static final long WARMUP_MS = 5_000;

  private final KairosRedis redis;
  private final HikariDataSource dataSource;
  private final RedisKeys keys = new RedisKeys(SHARDS);
  private long fireSeq;

  private SyncBench(KairosRedis redis, HikariDataSource dataSource) {
    this.redis = redis;
    this.dataSource = dataSource;
  }

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int[] rates =
        args.length > 1
            ? Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1_000, 10_000};
    int backlog = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    System.out.println("SyncBench start: " + Machine.describe());
    Path dir = Files.createTempDirectory("kairos-sync-bench");
    List<String> rows = new ArrayList<>();
    try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(dir.resolve("redis"), 3);
        EmbeddedPostgreSql pg = EmbeddedPostgreSql.start(dir.resolve("pg"));
        KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(30));
        HikariDataSource ds = dataSource(pg)) {
      ClusterMetadata.initialise(redis, SHARDS);
      SyncBench bench = new SyncBench(redis, ds);
      for (int rate : rates) {
        rows.add(bench.steady(rate, seconds));
        System.out.println(rows.get(rows.size() - 1));
      }
      rows.add(bench.backlog(backlog));
      System.out.println(rows.get(rows.size() - 1));
    } finally {
      ClaimBench.deleteRecursively(dir);
    }
    System.out.println();
    System.out.println(
        "| run | fires/s offered | events/s offered | events applied | events/s applied | lag p50"
            + " ms | lag p99 ms | lag max ms | pending max | drain after stop ms | load (1 min)"
            + " before → after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    rows.forEach(System.out::println);
  }

  private StreamSyncWorker worker(SyncMetrics metrics) {
    return new StreamSyncWorker(
        redis,
        new SyncStore(dataSource),
        new SchemaMigrator(dataSource),
        SyncConfig.defaults("bench-node"),
        metrics,
        SyncFaults.NONE);
  }

  /** Offers {@code rate} fires/s for {@code seconds} with the worker running; samples the lag. */
  private String steady(int rate, int seconds) throws Exception {
    String loadBefore = Machine.loadAverage();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    SyncMetrics metrics = new SyncMetrics(registry);
    SyncHealth health =
        new SyncHealth(
            redis,
            SyncConfig.DEFAULT_GROUP,
            System::currentTimeMillis,
            registry,
            Duration.ofSeconds(30));
    List<Long> lags = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicLong maxPending =
        new java.util.concurrent.atomic.AtomicLong();
    long offered = 0;
    double[] appliedAtWarmup = new double[1];
    long[] warmupEndNanos = new long[1];
    // Sampling reads every shard (several round trips each): its own thread, never the producer's.
    java.util.concurrent.ScheduledExecutorService sampler =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            r -> new Thread(r, "sync-bench-sampler"));
    try (StreamSyncWorker worker = worker(metrics)) {
      worker.start();
      long began = System.nanoTime();
      sampler.scheduleWithFixedDelay(
          () -> {
            SyncLagSnapshot lag = health.refresh();
            long now = System.nanoTime();
            if (now - began >= TimeUnit.MILLISECONDS.toNanos(WARMUP_MS)) {
              synchronized (warmupEndNanos) {
                if (warmupEndNanos[0] == 0) {
                  warmupEndNanos[0] = now;
                  appliedAtWarmup[0] = metrics.appliedCount();
                }
              }
              lags.add(lag.maxLagMs());
              maxPending.accumulateAndGet(lag.totalPending(), Math::max);
            }
          },
          1,
          1,
          TimeUnit.SECONDS);
      long end = began + TimeUnit.SECONDS.toNanos(seconds);
      long sliceNanos = TimeUnit.MILLISECONDS.toNanos(10);
      int perSlice = Math.max(1, rate / 100);
      long next = began;
      while (System.nanoTime() < end) {
        offered += produce(perSlice);
        next += sliceNanos;
        long sleep = next - System.nanoTime();
        if (sleep > 0) {
          TimeUnit.NANOSECONDS.sleep(sleep);
        }
      }
      long producedFires = offered / 2;
      System.out.printf("offered %,d fires in %d s (target %,d/s)%n", producedFires, seconds, rate);
      long stopped = System.nanoTime();
      double appliedInWindow;
      double windowSeconds;
      synchronized (warmupEndNanos) {
        appliedInWindow = metrics.appliedCount() - appliedAtWarmup[0];
        windowSeconds = (stopped - warmupEndNanos[0]) / 1e9;
      }
      long drainMs = drain(metrics, offered);
      sampler.shutdownNow();
      long[] sorted = lags.stream().mapToLong(Long::longValue).sorted().toArray();
      return String.format(
          "| steady | %,d (offered %,d/s) | %,d | %,d | %,.0f | %d | %d | %d | %,d | %,d | %s → %s |",
          rate,
          offered / 2 / seconds,
          offered / seconds,
          (long) metrics.appliedCount(),
          appliedInWindow / windowSeconds,
          Recorder.percentile(sorted, 50),
          Recorder.percentile(sorted, 99),
          sorted.length == 0 ? 0 : sorted[sorted.length - 1],
          maxPending.get(),
          drainMs,
          loadBefore,
          Machine.loadAverage());
    }
  }

  /** Appends {@code n} entries with the worker stopped, then times the drain from a cold start. */
  private String backlog(int fires) throws Exception {
    String loadBefore = Machine.loadAverage();
    long offered = 0;
    while (offered < fires * 2L) {
      offered += produce(Math.min(1_000, fires - (int) (offered / 2)));
    }
    SyncMetrics metrics = new SyncMetrics(new SimpleMeterRegistry());
    try (StreamSyncWorker worker = worker(metrics)) {
      long began = System.nanoTime();
      worker.start();
      long drainMs = drain(metrics, offered);
      long ms = (System.nanoTime() - began) / 1_000_000;
      return String.format(
          "| backlog | — | %,d pre-loaded | %,d | %,.0f | — | — | — | — | %,d | %s → %s |",
          offered,
          (long) metrics.appliedCount(),
          metrics.appliedCount() * 1000.0 / Math.max(1, ms),
          drainMs,
          loadBefore,
          Machine.loadAverage());
    }
  }

  /** Waits until the worker applied {@code expected} events; returns how long it took, ms. */
  private static long drain(SyncMetrics metrics, long expected) throws InterruptedException {
    long began = System.nanoTime();
    long deadline = began + TimeUnit.MINUTES.toNanos(5);
    while (metrics.appliedCount() < expected) {
      if (System.nanoTime() > deadline) {
        System.out.printf(
            "drain timed out: %,.0f of %,d applied%n", metrics.appliedCount(), expected);
        break;
      }
      Thread.sleep(20);
    }
    return (System.nanoTime() - began) / 1_000_000;
  }

  /** XADDs the two entries of {@code fires} fires, pipelined; returns the entries added. */
  private int produce(int fires) throws Exception {
    List<RedisFuture<String>> adds = new ArrayList<>(fires * 2);
    long now = System.currentTimeMillis();
    for (int i = 0; i < fires; i++) {
      long seq = fireSeq++;
      String jobId = "sync-bench-" + (seq % JOBS);
      long fireMs = now + (seq / JOBS) % 1_000;
      String triggerId = jobId + ":" + fireMs + "-" + seq;
      int shard = keys.shardOf(jobId);
      String stream = RedisKeys.events(shard);
      adds.add(
          redis
              .async()
              .xadd(
                  stream,
                  Map.of(
                      "type",
                      "TRIGGER_CLAIMED",
                      "triggerId",
                      triggerId,
                      "jobId",
                      jobId,
                      "state",
                      "CLAIMED",
                      "fireMs",
                      Long.toString(fireMs),
                      "node",
                      "node-" + (seq % 3),
                      "term",
                      "1",
                      "scheduleVersion",
                      "1",
                      "attempt",
                      "1",
                      "ms",
                      Long.toString(now))));
      adds.add(
          redis
              .async()
              .xadd(
                  stream,
                  Map.of(
                      "type",
                      "TRIGGER_UPDATED",
                      "triggerId",
                      triggerId,
                      "jobId",
                      jobId,
                      "state",
                      "DISPATCHED",
                      "slot",
                      Long.toString(seq % 8),
                      "ms",
                      Long.toString(now + 1))));
    }
    for (RedisFuture<String> add : adds) {
      add.get(30, TimeUnit.SECONDS);
    }
    return adds.size();
  }

  private static HikariDataSource dataSource(EmbeddedPostgreSql pg) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(pg.jdbcUrl());
    config.setUsername(pg.username());
    config.setPassword(pg.password());
    config.setMaximumPoolSize(4);
    config.setPoolName("sync-bench");
    return new HikariDataSource(config);
  }
}
