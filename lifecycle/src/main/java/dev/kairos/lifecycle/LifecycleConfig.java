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

  /** Defaults for {@code consumer}. */
  public static LifecycleConfig defaults(String consumer) {
    return builder(consumer).build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder(String consumer) {
    return new Builder(consumer);
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder(consumer)
        .group(group)
        .batchSize(batchSize)
        .pollInterval(pollInterval)
        .claimIdle(claimIdle)
        .claimInterval(claimInterval)
        .maxChildDepth(maxChildDepth)
        .redisTimeout(redisTimeout);
  }

  /** Settings one by one; every one not set keeps its default. */
  public static final class Builder {
    private final String consumer;
    private String group = DEFAULT_GROUP;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    private Duration claimIdle = DEFAULT_CLAIM_IDLE;
    private Duration claimInterval = DEFAULT_CLAIM_INTERVAL;
    private int maxChildDepth = DEFAULT_MAX_CHILD_DEPTH;
    private Duration redisTimeout = DEFAULT_REDIS_TIMEOUT;

    private Builder(String consumer) {
      this.consumer = consumer;
    }

    public Builder group(String group) {
      this.group = group;
      return this;
    }

    public Builder batchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    public Builder pollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
      return this;
    }

    public Builder claimIdle(Duration claimIdle) {
      this.claimIdle = claimIdle;
      return this;
    }

    public Builder claimInterval(Duration claimInterval) {
      this.claimInterval = claimInterval;
      return this;
    }

    public Builder maxChildDepth(int maxChildDepth) {
      this.maxChildDepth = maxChildDepth;
      return this;
    }

    public Builder redisTimeout(Duration redisTimeout) {
      this.redisTimeout = redisTimeout;
      return this;
    }

    public LifecycleConfig build() {
      return new LifecycleConfig(
          consumer,
          group,
          batchSize,
          pollInterval,
          claimIdle,
          claimInterval,
          maxChildDepth,
          redisTimeout);
    }
  }

  private static void requirePositive(Duration d, String name) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive but was " + d);
    }
  }
}
