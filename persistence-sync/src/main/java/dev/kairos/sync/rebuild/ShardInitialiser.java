package dev.kairos.sync.rebuild;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.ShardReadiness;
import dev.kairos.sync.worker.Backoff;
import io.lettuce.core.RedisFuture;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the scanner off shards whose Redis data is not known to be complete, and gets them
 * restored. Every {@code checkInterval} it reads every shard's initialised marker (one pipelined
 * GET per shard); a shard is ready while its marker exists (final or provisional). When some marker
 * is missing or provisional it runs {@link RedisRebuilder#ensureInitialised(int)}; while PostgreSQL
 * is unreachable that fails, and it retries with a doubling back-off: the initialised shards keep
 * being scheduled, the others wait (logged at WARN with their numbers, gauge {@code
 * kairos.shards.not.ready}). An empty Redis is marked provisional at once (see {@link
 * RedisRebuilder#markProvisionalIfEmpty(int)}), so a new cluster never waits for PostgreSQL.
 *
 * <p>A master that loses its data while the node runs loses its markers; the next check takes its
 * shards out of the scan until they are rebuilt.
 *
 * <p>Threads: checks run on {@code kairos-shard-init}; {@link #isReady(int)} is called from any.
 */
public final class ShardInitialiser implements ShardReadiness, AutoCloseable {

  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(1);
  private static final Logger log = LoggerFactory.getLogger(ShardInitialiser.class);

  /** Marker states of every shard at the last check; replaced whole, never mutated. */
  private record Markers(boolean[] present, int missing, int provisional) {
    static final Markers NONE = new Markers(new boolean[0], 0, 0);

    boolean complete() {
      return missing == 0 && provisional == 0;
    }
  }

  private final Lifecycle lifecycle = new Lifecycle("shard initialiser");
  private final KairosRedis redis;
  private final RedisRebuilder rebuilder;
  private final IntSupplier shards;
  private final Duration checkInterval;
  private final Duration redisTimeout;
  private final Backoff backoff;
  private final Counter failures;
  private final Counter rebuiltShards;
  private final Counter restoredJobs;
  private volatile Markers markers = Markers.NONE;
  private ScheduledExecutorService executor;

  /** Only the check thread touches it. */
  private long nextAttemptNanos;

  /**
   * @param shards the cluster's shard count (0 while unknown: nothing is ready)
   */
  public ShardInitialiser(
      KairosRedis redis,
      RedisRebuilder rebuilder,
      IntSupplier shards,
      Duration checkInterval,
      Duration redisTimeout,
      Backoff backoff,
      MeterRegistry meters) {
    this.redis = redis;
    this.rebuilder = rebuilder;
    this.shards = shards;
    this.checkInterval = checkInterval;
    this.redisTimeout = redisTimeout;
    this.backoff = backoff;
    this.failures = meters.counter("kairos.rebuild.failures");
    this.rebuiltShards = meters.counter("kairos.rebuild.shards");
    this.restoredJobs = meters.counter("kairos.rebuild.jobs.restored");
    Gauge.builder("kairos.shards.not.ready", this, i -> i.markers.missing())
        .description("shards without an initialised marker: not scanned until rebuilt")
        .register(meters);
    Gauge.builder("kairos.shards.provisional", this, i -> i.markers.provisional())
        .description("shards scheduled on a provisional marker, awaiting PostgreSQL")
        .register(meters);
  }

  @Override
  public boolean isReady(int shard) {
    boolean[] present = markers.present();
    return shard < present.length && present[shard];
  }

  /** Shards not ready at the last check. */
  public List<Integer> notReadyShards() {
    boolean[] present = markers.present();
    List<Integer> out = new ArrayList<>();
    for (int s = 0; s < present.length; s++) {
      if (!present[s]) {
        out.add(s);
      }
    }
    return out;
  }

  public int provisionalShards() {
    return markers.provisional();
  }

  /**
   * Reads the markers once on the caller's thread (an initialised cluster is ready before this
   * returns), then checks and rebuilds on {@code kairos-shard-init}. Never touches PostgreSQL here.
   */
  public void start() {
    lifecycle.start();
    try {
      int count = shards.getAsInt();
      if (count > 0) {
        markers = readMarkingAnEmptyRedis(count);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading the shard markers", e);
    } catch (RuntimeException e) {
      log.warn("reading the shard markers failed ({}); will retry in the background", e.toString());
    }
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kairos-shard-init");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(
        this::check, 0, checkInterval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void check() {
    try {
      int count = shards.getAsInt();
      if (count <= 0) {
        return;
      }
      Markers now = readMarkingAnEmptyRedis(count);
      markers = now;
      if (now.complete() || System.nanoTime() - nextAttemptNanos < 0) {
        return;
      }
      attempt(count, now);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closing
    } catch (RuntimeException e) {
      if (!lifecycle.isStarted()) {
        return; // close() interrupted the call in flight: not a failure
      }
      failures.increment();
      log.warn("shard initialisation check failed ({}); will keep running", e.toString());
    }
  }

  private void attempt(int count, Markers before) throws InterruptedException {
    try {
      RebuildReport report = rebuilder.ensureInitialised(count);
      backoff.reset();
      rebuiltShards.increment(report.rebuiltShards().size());
      restoredJobs.increment(report.restoredJobs());
      if (!report.rebuiltShards().isEmpty()) {
        log.info(
            "shards {} initialised from PostgreSQL: {} jobs restored, {} kept",
            report.rebuiltShards(),
            report.restoredJobs(),
            report.keptJobs());
      }
    } catch (SQLException e) {
      failures.increment();
      long delayMs = backoff.next();
      nextAttemptNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
      log.warn(
          "PostgreSQL unreachable for the shard rebuild ({}): shards {} are not scheduled and {}"
              + " run on a provisional marker; initialised shards are scheduled as usual; retry"
              + " in {} ms",
          e.getMessage(),
          notReadyShards(),
          before.provisional(),
          delayMs);
    }
    markers = read(count);
  }

  /** Reads the markers; when none exists at all, marks every shard provisional and re-reads. */
  private Markers readMarkingAnEmptyRedis(int count) throws InterruptedException {
    Markers now = read(count);
    if (now.missing() == count && rebuilder.markProvisionalIfEmpty(count) > 0) {
      now = read(count);
    }
    return now;
  }

  private Markers read(int count) throws InterruptedException {
    List<RedisFuture<String>> replies = new ArrayList<>(count);
    for (int s = 0; s < count; s++) {
      replies.add(redis.async().get(RebuildKeys.initialised(s)));
    }
    boolean[] present = new boolean[count];
    int missing = 0;
    int provisional = 0;
    long deadline = System.nanoTime() + redisTimeout.toNanos();
    for (int s = 0; s < count; s++) {
      String marker;
      try {
        marker =
            replies.get(s).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException("reading shard " + s + "'s marker failed: " + e, e);
      }
      present[s] = marker != null;
      if (marker == null) {
        missing++;
      } else if (RebuildKeys.provisionalSince(marker) >= 0) {
        provisional++;
      }
    }
    return new Markers(present, missing, provisional);
  }

  @Override
  public void close() {
    if (!lifecycle.closeStarted()) {
      return;
    }
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("kairos-shard-init did not stop within 5 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
