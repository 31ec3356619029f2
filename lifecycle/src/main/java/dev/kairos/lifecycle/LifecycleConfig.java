package dev.kairos.lifecycle;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one node's {@link LifecycleWorker}.
 *
 * @param consumer this node's consumer name in the group (the node name: stable across restarts, so
 *     a restarted node first finishes what it had read)
 * @param group the consumer group on every shard's events stream, {@link #DEFAULT_GROUP}
 * @param batchSize entries read per shard per round
 * @param pollInterval pause after a round that found nothing
 * @param claimIdle entries another consumer read and left unacknowledged this long are taken over
 *     (its node died)
 * @param claimInterval how often to look for such entries
 * @param maxChildDepth child triggers deeper than this are not created (bounds a cycle formed by
 *     two concurrent saves)
 * @param redisTimeout bound of one round's Redis calls
 */
public record LifecycleConfig(
    String consumer,
    String group,
    int batchSize,
    Duration pollInterval,
    Duration claimIdle,
    Duration claimInterval,
    int maxChildDepth,
    Duration redisTimeout) {

  public static final String DEFAULT_GROUP = "kairos-lifecycle";
  public static final int DEFAULT_BATCH_SIZE = 200;
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(100);
  public static final Duration DEFAULT_CLAIM_IDLE = Duration.ofSeconds(30);
  public static final Duration DEFAULT_CLAIM_INTERVAL = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_CHILD_DEPTH = 16;
  public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(10);

  public LifecycleConfig {
    Objects.requireNonNull(consumer, "consumer");
    Objects.requireNonNull(group, "group");
    if (consumer.isBlank() || group.isBlank()) {
      throw new IllegalArgumentException("consumer and group must not be blank");
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1 but was " + batchSize);
    }
    if (maxChildDepth < 1) {
      throw new IllegalArgumentException("maxChildDepth must be >= 1 but was " + maxChildDepth);
    }
    requirePositive(pollInterval, "pollInterval");
    requirePositive(claimIdle, "claimIdle");
    requirePositive(claimInterval, "claimInterval");
    requirePositive(redisTimeout, "redisTimeout");
  }

  public static LifecycleConfig defaults(String consumer) {
    return new LifecycleConfig(
        consumer,
        DEFAULT_GROUP,
        DEFAULT_BATCH_SIZE,
        DEFAULT_POLL_INTERVAL,
        DEFAULT_CLAIM_IDLE,
        DEFAULT_CLAIM_INTERVAL,
        DEFAULT_MAX_CHILD_DEPTH,
        DEFAULT_REDIS_TIMEOUT);
  }

  public LifecycleConfig withClaimIdle(Duration idle, Duration interval) {
    return new LifecycleConfig(
        consumer, group, batchSize, pollInterval, idle, interval, maxChildDepth, redisTimeout);
  }

  public LifecycleConfig withPollInterval(Duration poll) {
    return new LifecycleConfig(
        consumer, group, batchSize, poll, claimIdle, claimInterval, maxChildDepth, redisTimeout);
  }

  public LifecycleConfig withBatchSize(int size) {
    return new LifecycleConfig(
        consumer, group, size, pollInterval, claimIdle, claimInterval, maxChildDepth, redisTimeout);
  }

  public LifecycleConfig withMaxChildDepth(int depth) {
    return new LifecycleConfig(
        consumer, group, batchSize, pollInterval, claimIdle, claimInterval, depth, redisTimeout);
  }

  private static void requirePositive(Duration d, String name) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive but was " + d);
    }
  }
}
