package dev.kairos.core.redis;

import dev.kairos.core.error.KairosException;

/**
 * Cluster-wide settings fixed when a Kairos cluster first starts, kept in {@link RedisKeys#META}.
 * The shard count decides which shard (and hash tag) every job lives in, so changing it later would
 * strand jobs: the first node to start writes it, every later node adopts the stored value.
 */
public final class ClusterMetadata {

  /** Field of {@link RedisKeys#META} holding the shard count. */
  public static final String SHARDS = "shards";

  private ClusterMetadata() {}

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
