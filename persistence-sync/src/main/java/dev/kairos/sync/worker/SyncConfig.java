package dev.kairos.sync.worker;

import static dev.kairos.protocol.event.EventsConsumerSettings.requirePositive;

import dev.kairos.protocol.event.EventsConsumerSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one node's {@link StreamSyncWorker}.
 *
 * @param events how it consumes the events streams: the consumer group shared by every node (one
 *     group, so each entry is applied once), this node's consumer name in it (stable per node),
 *     entries read per shard per XREADGROUP, the pause after a round that found nothing, how long a
 *     pending entry stays idle before it is taken over from its dead consumer, and how often
 *     XAUTOCLAIM runs (also once at start)
 * @param maxEventsPerRound entries applied in one PostgreSQL transaction, across shards
 * @param trimInterval how often acknowledged entries are trimmed from the streams
 * @param retryInitial first back-off after a failure (PostgreSQL or Redis unavailable)
 * @param retryMax longest back-off
 * @param consumerExpiry a consumer of the group idle this long with no pending entries is removed
 *     (XGROUP DELCONSUMER), so restarts under new names do not pile consumers up
 */
public record SyncConfig(
    EventsConsumerSettings events,
    int maxEventsPerRound,
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
    Objects.requireNonNull(events, "events");
    if (maxEventsPerRound < events.batchSize()) {
      throw new IllegalArgumentException(
          "maxEventsPerRound must be >= batchSize ("
              + events.batchSize()
              + ") but was "
              + maxEventsPerRound);
    }
    requirePositive(trimInterval, "trimInterval");
    requirePositive(retryInitial, "retryInitial");
    requirePositive(retryMax, "retryMax");
    requirePositive(consumerExpiry, "consumerExpiry");
  }

  /** Defaults for {@code consumer}. */
  public static SyncConfig defaults(String consumer) {
    return builder(consumer).build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder(String consumer) {
    Builder defaults = new Builder(consumer);
    defaults.group(DEFAULT_GROUP).batchSize(DEFAULT_BATCH_SIZE).pollInterval(DEFAULT_POLL_INTERVAL);
    return defaults.claimIdle(DEFAULT_CLAIM_IDLE).claimInterval(DEFAULT_CLAIM_INTERVAL);
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return builder(events.consumer())
        .events(events)
        .maxEventsPerRound(maxEventsPerRound)
        .trimInterval(trimInterval)
        .retryInitial(retryInitial)
        .retryMax(retryMax)
        .consumerExpiry(consumerExpiry);
  }

  /** Settings one by one; every one not set keeps its default. */
  public static final class Builder extends EventsConsumerSettings.Builder<Builder> {
    private int maxEventsPerRound = DEFAULT_MAX_EVENTS_PER_ROUND;
    private Duration trimInterval = DEFAULT_TRIM_INTERVAL;
    private Duration retryInitial = DEFAULT_RETRY_INITIAL;
    private Duration retryMax = DEFAULT_RETRY_MAX;
    private Duration consumerExpiry = DEFAULT_CONSUMER_EXPIRY;

    private Builder(String consumer) {
      super(consumer);
    }

    public Builder maxEventsPerRound(int maxEventsPerRound) {
      this.maxEventsPerRound = maxEventsPerRound;
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
          settings(), maxEventsPerRound, trimInterval, retryInitial, retryMax, consumerExpiry);
    }
  }
}
