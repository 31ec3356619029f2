package dev.kairos.core.redis;

/**
 * Whether a shard's data in Redis is complete enough to be scanned. A shard whose Redis master lost
 * its data looks exactly like a shard with no due jobs; the leader's scan must skip it until it has
 * been restored (persistence-sync's shard initialiser implements this from the shard's initialised
 * marker). Called by the scanner once per shard per pass: implementations answer from memory.
 */
@FunctionalInterface
public interface ShardReadiness {

  /** Every shard is ready: a deployment with nothing to restore from. */
  ShardReadiness ALL = shard -> true;

  boolean isReady(int shard);
}
