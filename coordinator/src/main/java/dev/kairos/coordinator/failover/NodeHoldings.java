package dev.kairos.coordinator.failover;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;

/**
 * What one node still holds in Redis, over every shard: entries on its persisted wheel, entries in
 * its inflight set, and the shards whose node set still names it. A drained node holds nothing: the
 * move script removes a node from a shard's node set once it has moved the last entry there. Reads
 * only (3 commands per shard); for a drain's progress, not for the hot path.
 */
public final class NodeHoldings {

  /** One reading of a node's holdings. */
  public record Held(String node, long wheel, long inflight, int shardsListing) {

    /** Nothing left anywhere: the node may leave. */
    public boolean isEmpty() {
      return wheel == 0 && inflight == 0 && shardsListing == 0;
    }
  }

  private final KairosRedis redis;
  private final RedisKeys keys;

  public NodeHoldings(KairosRedis redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  public Held of(String node) {
    long wheel = 0;
    long inflight = 0;
    int listing = 0;
    for (int shard = 0; shard < keys.shards(); shard++) {
      wheel += redis.sync().zcard(RedisKeys.wheel(shard, node));
      inflight += redis.sync().zcard(RedisKeys.inflight(shard, node));
      if (redis.sync().sismember(RedisKeys.nodes(shard), node)) {
        listing++;
      }
    }
    return new Held(node, wheel, inflight, listing);
  }
}
