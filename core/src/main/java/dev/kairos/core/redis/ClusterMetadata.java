package dev.kairos.core.redis;

import dev.kairos.core.error.KairosException;
import java.time.Duration;

/**
 * Cluster-wide settings fixed when a Kairos cluster first starts, kept in {@link RedisKeys#META}.
 * The shard count decides which shard (and hash tag) every job lives in, so changing it later would
 * strand jobs: the first node to start writes it, every later node adopts the stored value.
 */
public final class ClusterMetadata {

  /** Field of {@link RedisKeys#META} holding the shard count. */
  public static final String SHARDS = "shards";

  /** Field of {@link RedisKeys#META} holding the dedup window D in ms. */
  public static final String DEDUP_WINDOW_MS = "dedupWindowMs";

  private ClusterMetadata() {}

  /**
   * Stores {@code window} as the cluster's dedup window D unless one is stored, and refuses a
   * process whose D differs from the stored one. Nodes and executors must agree on D: the start
   * claim starts a fire at most once within D of its fire time and the node re-sends for as long as
   * D allows, so an executor with a shorter D could start a re-sent copy a second time.
   *
   * @param property the setting that configures {@code window} in this process, for the message
   * @throws KairosException when the stored D differs, naming both values and {@code property}
   */
  public static void agreeOnDedupWindow(KairosRedis redis, Duration window, String property) {
    String mine = Long.toString(window.toMillis());
    redis.sync().hsetnx(RedisKeys.META, DEDUP_WINDOW_MS, mine);
    String stored = redis.sync().hget(RedisKeys.META, DEDUP_WINDOW_MS);
    if (!mine.equals(stored)) {
      throw new KairosException(
          "this process's dedup window "
              + property
              + " = "
              + window
              + " differs from the cluster's, "
              + stored
              + " ms (field "
              + DEDUP_WINDOW_MS
              + " of "
              + RedisKeys.META
              + "): with different windows a trigger could start twice. Set "
              + property
              + " to "
              + stored
              + " ms.");
    }
  }

  /**
   * Stores {@code defaultShards} unless a shard count is already stored, and returns the stored
   * one.
   *
   * @throws KairosException when the stored value is not a valid shard count
   */
  public static int initialise(KairosRedis redis, int defaultShards) {
    if (defaultShards < 1 || defaultShards > 16384) {
      throw new IllegalArgumentException("shards must be in 1..16384 but was " + defaultShards);
    }
    redis.sync().hsetnx(RedisKeys.META, SHARDS, Integer.toString(defaultShards));
    String stored = redis.sync().hget(RedisKeys.META, SHARDS);
    try {
      int shards = Integer.parseInt(stored);
      if (shards >= 1 && shards <= 16384) {
        return shards;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new KairosException(
        "corrupt shard count in " + RedisKeys.META + " field " + SHARDS + ": " + stored);
  }
}
