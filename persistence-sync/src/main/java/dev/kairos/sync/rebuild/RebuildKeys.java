package dev.kairos.sync.rebuild;

import dev.kairos.core.redis.RedisKeys;

/**
 * Per-shard rebuild keys. They carry the shard's hash tag so they live on the shard's own master:
 * when that master loses its data, its markers vanish with its jobs, and only its shards are
 * rebuilt. (Proposed for adoption by core's {@link RedisKeys}.)
 */
public final class RebuildKeys {

  private RebuildKeys() {}

  /** STRING {@code kairos:{s}:initialised}: the shard's data is complete (value: when, ms). */
  public static String initialised(int shard) {
    return RedisKeys.PREFIX + "{" + shard + "}:initialised";
  }

  /** Prefix of a provisional marker's value; the rest is the epoch ms it was set at. */
  public static final String PROVISIONAL = "provisional:";

  /**
   * Value of a provisional marker: the shard was found empty in an empty Redis (a new cluster, or a
   * whole Redis lost) and is scanned at once; jobs PostgreSQL holds from before {@code sinceMs} are
   * restored when it answers, and the marker then becomes final.
   */
  public static String provisional(long sinceMs) {
    return PROVISIONAL + sinceMs;
  }

  /** The time a provisional marker value was set at, or -1 for a final marker. */
  public static long provisionalSince(String marker) {
    return marker.startsWith(PROVISIONAL)
        ? Long.parseLong(marker.substring(PROVISIONAL.length()))
        : -1;
  }

  /** STRING {@code kairos:{s}:rebuild-lock}: token of the node rebuilding the shard (SET NX PX). */
  public static String lock(int shard) {
    return RedisKeys.PREFIX + "{" + shard + "}:rebuild-lock";
  }
}
