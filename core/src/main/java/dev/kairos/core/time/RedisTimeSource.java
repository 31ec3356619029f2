package dev.kairos.core.time;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.util.List;
import java.util.Objects;

/**
 * Redis {@code TIME} of the master that owns {@link RedisKeys#CLOCK_REFERENCE}'s slot on a cluster
 * (looked up on every read, so a failover moves the reference with the slot), or of the server on a
 * standalone Redis. Masters' clocks differ; every node therefore asks the same one.
 */
public final class RedisTimeSource implements ReferenceTimeSource {

  private static final int SLOT = SlotHash.getSlot(RedisKeys.CLOCK_REFERENCE);

  private final KairosRedis redis;

  public RedisTimeSource(KairosRedis redis) {
    this.redis = Objects.requireNonNull(redis, "redis");
  }

  @Override
  public Reading read() {
    StatefulRedisClusterConnection<String, String> cluster = redis.clusterConnection();
    if (cluster == null) {
      return new Reading(micros(redis.sync().time()), "standalone");
    }
    RedisClusterNode owner = cluster.getPartitions().getMasterBySlot(SLOT);
    if (owner == null) {
      throw new KairosException(
          "no master owns slot " + SLOT + " of " + RedisKeys.CLOCK_REFERENCE + " (cluster down?)");
    }
    List<String> time = cluster.getConnection(owner.getNodeId()).sync().time();
    return new Reading(micros(time), owner.getNodeId() + "@" + owner.getUri());
  }

  /** The slot whose master is the reference clock. */
  public static int referenceSlot() {
    return SLOT;
  }

  private static long micros(List<String> time) {
    if (time == null || time.size() != 2) {
      throw new KairosException("unexpected TIME reply: " + time);
    }
    return Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
  }
}
