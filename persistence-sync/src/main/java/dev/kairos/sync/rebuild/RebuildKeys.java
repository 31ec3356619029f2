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

  /** STRING {@code kairos:{s}:rebuild-lock}: token of the node rebuilding the shard (SET NX PX). */
  public static String lock(int shard) {
    return RedisKeys.PREFIX + "{" + shard + "}:rebuild-lock";
  }
}
