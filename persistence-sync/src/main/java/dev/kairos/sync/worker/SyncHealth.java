package dev.kairos.sync.worker;

import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-shard lag of the write-behind, read from Redis only (so it works while PostgreSQL is down):
 * pending count and the age of the oldest unacknowledged entry. {@link #refresh()} samples every
 * shard, updates the gauges {@code kairos.sync.pending} and {@code kairos.sync.lag.ms} (tag {@code
 * shard}) and logs a WARN when a shard's lag passes the threshold (again every minute while it
 * does). Thread-safe: refresh from one thread, read {@link #snapshot()} from any; the snapshot is
 * what other components (admin API, alarms) read, never Redis directly.
 */
public final class SyncHealth {

  public static final Duration DEFAULT_LAG_THRESHOLD = Duration.ofSeconds(30);
  private static final long WARN_EVERY_MS = 60_000;
  private static final Logger log = LoggerFactory.getLogger(SyncHealth.class);

  private final KairosRedis redis;
  private final StreamGroups groups;
  private final KairosClock clock;
  private final MeterRegistry registry;
  private final long thresholdMs;
  private final Map<Integer, ShardLag> lags = new ConcurrentHashMap<>();
  private final Map<Integer, Long> lastWarnMs = new ConcurrentHashMap<>();
  private volatile SyncLagSnapshot snapshot;

  public SyncHealth(
      KairosRedis redis,
      String group,
      KairosClock clock,
      MeterRegistry registry,
      Duration lagThreshold) {
    this.redis = redis;
    this.groups = new StreamGroups(redis, group);
    this.clock = clock;
    this.registry = registry;
    this.thresholdMs = lagThreshold.toMillis();
    this.snapshot = new SyncLagSnapshot(0, thresholdMs, List.of());
    Gauge.builder("kairos.sync.lag.max.ms", this, h -> h.snapshot.maxLagMs())
        .description("age of the oldest stream entry not yet in PostgreSQL, over all shards")
        .register(registry);
    Gauge.builder("kairos.sync.pending.all", this, h -> h.snapshot.totalPending())
        .description("stream entries delivered to persistence-sync and not yet acknowledged")
        .register(registry);
  }

  public long thresholdMs() {
    return thresholdMs;
  }

  /** Samples every shard; returns the new snapshot. Shards of an uninitialised Redis: none. */
  public SyncLagSnapshot refresh() {
    String stored = redis.sync().hget(RedisKeys.META, ClusterMetadata.SHARDS);
    if (stored == null) {
      return snapshot();
    }
    int shards = Integer.parseInt(stored);
    long now = clock.nowMs();
    for (StreamGroups.Backlog backlog : groups.backlogs(shards)) {
      long age = backlog.oldestUnsynced().map(id -> Math.max(0, now - id.ms())).orElse(0L);
      ShardLag lag = new ShardLag(backlog.shard(), backlog.pending(), backlog.length(), age);
      if (lags.put(backlog.shard(), lag) == null) {
        register(backlog.shard());
      }
      warnIfLagging(lag, now);
    }
    snapshot = new SyncLagSnapshot(now, thresholdMs, new ArrayList<>(lags.values()));
    return snapshot;
  }

  private void register(int shard) {
    String tag = Integer.toString(shard);
    Gauge.builder("kairos.sync.pending", lags, m -> m.get(shard).pending())
        .tag("shard", tag)
        .description("stream entries delivered to persistence-sync and not yet acknowledged")
        .register(registry);
    Gauge.builder("kairos.sync.lag.ms", lags, m -> m.get(shard).oldestUnsyncedAgeMs())
        .tag("shard", tag)
        .description("age of the oldest stream entry not yet in PostgreSQL")
        .register(registry);
  }

  private void warnIfLagging(ShardLag lag, long now) {
    if (lag.oldestUnsyncedAgeMs() <= thresholdMs) {
      lastWarnMs.remove(lag.shard());
      return;
    }
    Long last = lastWarnMs.get(lag.shard());
    if (last == null || now - last >= WARN_EVERY_MS) {
      lastWarnMs.put(lag.shard(), now);
      log.warn(
          "persistence-sync lags on shard {}: oldest unsynced entry is {} ms old (threshold {} ms),"
              + " {} pending",
          lag.shard(),
          lag.oldestUnsyncedAgeMs(),
          thresholdMs,
          lag.pending());
    }
  }

  /** The last sample (never null; empty before the first {@link #refresh()}). */
  public SyncLagSnapshot snapshot() {
    return snapshot;
  }

  /** Largest oldest-entry age over all shards at the last sample, 0 when in sync. */
  public long maxLagMs() {
    return snapshot.maxLagMs();
  }

  public boolean isLagging() {
    return snapshot.lagging();
  }
}
