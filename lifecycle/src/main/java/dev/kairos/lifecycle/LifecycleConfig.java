package dev.kairos.lifecycle;

import dev.kairos.protocol.event.EventsConsumerSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one node's {@link LifecycleWorker}.
 *
 * @param events how it consumes the events streams: this node's consumer name in the group (the
 *     node name: stable across restarts, so a restarted node first finishes what it had read), the
 *     group {@link #DEFAULT_GROUP}, entries read per shard per round, the pause after a round that
 *     found nothing, and when and how often entries a dead node left unacknowledged are taken over
 * @param maxChildDepth child triggers deeper than this are not created (bounds a cycle formed by
 *     two concurrent saves)
 * @param redisTimeout bound of one round's Redis calls
 */
public record LifecycleConfig(
    EventsConsumerSettings events, int maxChildDepth, Duration redisTimeout) {

  public static final String DEFAULT_GROUP = "kairos-lifecycle";
  public static final int DEFAULT_BATCH_SIZE = 200;
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(100);
  public static final Duration DEFAULT_CLAIM_IDLE = Duration.ofSeconds(30);
  public static final Duration DEFAULT_CLAIM_INTERVAL = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_CHILD_DEPTH = 16;
  public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(10);

  public LifecycleConfig {
    Objects.requireNonNull(events, "events");
    if (maxChildDepth < 1) {
      throw new IllegalArgumentException("maxChildDepth must be >= 1 but was " + maxChildDepth);
    }
    EventsConsumerSettings.requirePositive(redisTimeout, "redisTimeout");
  }

  /** Defaults for {@code consumer}. */
  public static LifecycleConfig defaults(String consumer) {
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
        .maxChildDepth(maxChildDepth)
        .redisTimeout(redisTimeout);
  }

  /** Settings one by one; every one not set keeps its default. */
  public static final class Builder extends EventsConsumerSettings.Builder<Builder> {
    private int maxChildDepth = DEFAULT_MAX_CHILD_DEPTH;
    private Duration redisTimeout = DEFAULT_REDIS_TIMEOUT;

    private Builder(String consumer) {
      super(consumer);
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
      return new LifecycleConfig(settings(), maxChildDepth, redisTimeout);
    }
  }
}
