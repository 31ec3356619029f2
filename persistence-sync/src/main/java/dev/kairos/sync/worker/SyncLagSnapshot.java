package dev.kairos.sync.worker;

import java.util.Comparator;
import java.util.List;

/**
 * What the write-behind owes PostgreSQL, as last sampled from Redis: the read side for the admin
 * API's cluster view and the SYNC_LAG alarm. Immutable; obtained from {@link
 * SyncHealth#snapshot()}.
 *
 * @param sampledAtMs when the shards were sampled (epoch ms), 0 when never sampled yet
 * @param thresholdMs lag above which a shard counts as lagging ({@code kairos.sync.lag-threshold})
 * @param shards one entry per shard, ordered by shard; empty before the first sample or when the
 *     cluster has no shard count in Redis yet
 */
public record SyncLagSnapshot(long sampledAtMs, long thresholdMs, List<ShardLag> shards) {

  public SyncLagSnapshot {
    shards = shards.stream().sorted(Comparator.comparingInt(ShardLag::shard)).toList();
  }

  /** Age of the oldest unsynced entry over all shards, 0 when PostgreSQL is in sync. */
  public long maxLagMs() {
    return shards.stream().mapToLong(ShardLag::oldestUnsyncedAgeMs).max().orElse(0);
  }

  /** Entries delivered to a sync worker and not yet acknowledged, over all shards. */
  public long totalPending() {
    return shards.stream().mapToLong(ShardLag::pending).sum();
  }

  /** Shards whose oldest unsynced entry is older than the threshold. */
  public List<ShardLag> laggingShards() {
    return shards.stream().filter(l -> l.oldestUnsyncedAgeMs() > thresholdMs).toList();
  }

  public boolean lagging() {
    return maxLagMs() > thresholdMs;
  }
}
