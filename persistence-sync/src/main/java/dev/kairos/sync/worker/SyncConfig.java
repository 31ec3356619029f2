package dev.kairos.sync.worker;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one node's {@link StreamSyncWorker}.
 *
 * @param group consumer group shared by every node (one group, so each entry is applied once)
 * @param consumer this node's consumer name in the group (stable per node)
 * @param batchSize entries read per shard per XREADGROUP
 * @param maxEventsPerRound entries applied in one PostgreSQL transaction, across shards
 * @param pollInterval pause after a round that found nothing
 * @param claimIdle a pending entry idle this long belongs to a dead consumer and is taken over
 * @param claimInterval how often XAUTOCLAIM runs (also once at start)
 * @param trimInterval how often acknowledged entries are trimmed from the streams
 * @param retryInitial first back-off after a failure (PostgreSQL or Redis unavailable)
 * @param retryMax longest back-off
 * @param consumerExpiry a consumer of the group idle this long with no pending entries is removed
 *     (XGROUP DELCONSUMER), so restarts under new names do not pile consumers up
 */
public record SyncConfig(
    String group,
    String consumer,
    int batchSize,
    int maxEventsPerRound,
    Duration pollInterval,
    Duration claimIdle,
    Duration claimInterval,
    Duration trimInterval,
    Duration retryInitial,
    Duration retryMax,
    Duration consumerExpiry) {

  public static final String DEFAULT_GROUP = "kairos-sync";
  public static final int DEFAULT_BATCH_SIZE = 500;
  public static final int DEFAULT_MAX_EVENTS_PER_ROUND = 5_000;
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(200);
  public static final Duration DEFAULT_CLAIM_IDLE = Duration.ofSeconds(60);
  public static final Duration DEFAULT_CLAIM_INTERVAL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_TRIM_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_RETRY_INITIAL = Duration.ofMillis(500);
  public static final Duration DEFAULT_RETRY_MAX = Duration.ofSeconds(30);
  public static final Duration DEFAULT_CONSUMER_EXPIRY = Duration.ofMinutes(10);

  public SyncConfig {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(consumer, "consumer");
    if (batchSize < 1 || maxEventsPerRound < batchSize) {
      throw new IllegalArgumentException(
          "batchSize must be >= 1 and maxEventsPerRound >= batchSize but were "
              + batchSize
              + " and "
              + maxEventsPerRound);
    }
    for (Duration d :
        new Duration[] {
          pollInterval,
          claimIdle,
          claimInterval,
          trimInterval,
          retryInitial,
          retryMax,
          consumerExpiry
        }) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("durations must be positive");
      }
    }
  }

  /** Defaults for {@code consumer}. */
  public static SyncConfig defaults(String consumer) {
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
        .maxEventsPerRound(maxEventsPerRound)
        .pollInterval(pollInterval)
        .claimIdle(claimIdle)
        .claimInterval(claimInterval)
        .trimInterval(trimInterval)
        .retryInitial(retryInitial)
        .retryMax(retryMax)
        .consumerExpiry(consumerExpiry);
  }

  /** Settings one by one; every one not set keeps its default. */
  public static final class Builder {
    private final String consumer;
    private String group = DEFAULT_GROUP;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int maxEventsPerRound = DEFAULT_MAX_EVENTS_PER_ROUND;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    private Duration claimIdle = DEFAULT_CLAIM_IDLE;
    private Duration claimInterval = DEFAULT_CLAIM_INTERVAL;
    private Duration trimInterval = DEFAULT_TRIM_INTERVAL;
    private Duration retryInitial = DEFAULT_RETRY_INITIAL;
    private Duration retryMax = DEFAULT_RETRY_MAX;
    private Duration consumerExpiry = DEFAULT_CONSUMER_EXPIRY;

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

    public Builder maxEventsPerRound(int maxEventsPerRound) {
      this.maxEventsPerRound = maxEventsPerRound;
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

    public Builder trimInterval(Duration trimInterval) {
      this.trimInterval = trimInterval;
      return this;
    }

    public Builder retryInitial(Duration retryInitial) {
      this.retryInitial = retryInitial;
      return this;
    }

    public Builder retryMax(Duration retryMax) {
      this.retryMax = retryMax;
      return this;
    }

    public Builder consumerExpiry(Duration consumerExpiry) {
      this.consumerExpiry = consumerExpiry;
      return this;
    }

    public SyncConfig build() {
      return new SyncConfig(
          group,
          consumer,
          batchSize,
          maxEventsPerRound,
          pollInterval,
          claimIdle,
          claimInterval,
          trimInterval,
          retryInitial,
          retryMax,
          consumerExpiry);
    }
  }
}
