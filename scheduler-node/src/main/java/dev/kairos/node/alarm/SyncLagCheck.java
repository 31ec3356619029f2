package dev.kairos.node.alarm;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.time.KairosClock;
import dev.kairos.sync.worker.ShardLag;
import dev.kairos.sync.worker.SyncLagSnapshot;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * SYNC_LAG: the oldest stream entry not yet in PostgreSQL is older than the threshold on at least
 * one shard. The lag is read from persistence-sync's own sampling ({@code SyncHealth}, refreshed
 * from Redis on every node); only the leader judges, so a cluster sends one alarm, not one per
 * node.
 */
final class SyncLagCheck implements ConditionCheck {

  static final String SUBJECT = "cluster";
  private static final int SHARDS_NAMED = 10;

  private final Supplier<SyncLagSnapshot> lags;
  private final Duration threshold;
  private final BooleanSupplier judges;
  private final KairosClock clock;
  private final AlarmSink sink;
  private volatile boolean active;

  /**
   * @param threshold the alarm's own lag threshold, or null for the snapshot's ({@code
   *     kairos.sync.lag-threshold})
   */
  SyncLagCheck(
      Supplier<SyncLagSnapshot> lags,
      Duration threshold,
      BooleanSupplier judges,
      KairosClock clock,
      AlarmSink sink) {
    this.lags = lags;
    this.threshold = threshold;
    this.judges = judges;
    this.clock = clock;
    this.sink = sink;
  }

  @Override
  public String name() {
    return "sync-lag";
  }

  @Override
  public boolean active() {
    return active;
  }

  @Override
  public void check() {
    if (!judges.getAsBoolean()) {
      active = false;
      return;
    }
    SyncLagSnapshot snapshot = lags.get();
    long thresholdMs = threshold != null ? threshold.toMillis() : snapshot.thresholdMs();
    List<ShardLag> lagging =
        snapshot.shards().stream()
            .filter(l -> l.oldestUnsyncedAgeMs() > thresholdMs)
            .sorted(Comparator.comparingLong(ShardLag::oldestUnsyncedAgeMs).reversed())
            .toList();
    active = !lagging.isEmpty();
    if (!active) {
      return;
    }
    long maxLagMs = lagging.get(0).oldestUnsyncedAgeMs();
    String shards =
        lagging.stream()
            .limit(SHARDS_NAMED)
            .map(l -> Integer.toString(l.shard()))
            .collect(Collectors.joining(","));
    sink.raise(
        new Alarm(
            AlarmKind.SYNC_LAG,
            SUBJECT,
            "persistence-sync is "
                + maxLagMs / 1000
                + " s behind on "
                + lagging.size()
                + " shard(s) (threshold "
                + thresholdMs / 1000
                + " s)",
            Map.of(
                "maxLagMs", Long.toString(maxLagMs),
                "thresholdMs", Long.toString(thresholdMs),
                "laggingShards", Integer.toString(lagging.size()),
                "shards", shards,
                "pending", Long.toString(lagging.stream().mapToLong(ShardLag::pending).sum())),
            clock.nowMs()));
  }
}
