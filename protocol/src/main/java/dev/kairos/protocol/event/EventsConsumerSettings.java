package dev.kairos.protocol.event;

import java.time.Duration;
import java.util.Objects;

/**
 * How one node consumes every shard's events stream ({@link TriggerEvents}) as a member of a
 * consumer group: the settings the lifecycle worker and persistence-sync share, checked here once.
 * It has no defaults: each reader keeps its own (its group is its own, and so are its pace and
 * patience), and its builder extends {@link Builder} to start from them.
 *
 * @param group the consumer group on every shard's events stream
 * @param consumer this node's consumer name in the group (stable across restarts, so a restarted
 *     node first finishes what it had read)
 * @param batchSize entries read per shard per XREADGROUP, and taken per XAUTOCLAIM
 * @param pollInterval pause after a round that found nothing
 * @param claimIdle entries another consumer read and left unacknowledged this long are taken over
 *     (its node died)
 * @param claimInterval how often to look for such entries ({@link IdleEntryClaimer})
 */
public record EventsConsumerSettings(
    String group,
    String consumer,
    int batchSize,
    Duration pollInterval,
    Duration claimIdle,
    Duration claimInterval) {

  public EventsConsumerSettings {
    requireName(group, "group");
    requireName(consumer, "consumer");
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1 but was " + batchSize);
    }
    requirePositive(pollInterval, "pollInterval");
    requirePositive(claimIdle, "claimIdle");
    requirePositive(claimInterval, "claimInterval");
  }

  /**
   * The check these settings make of their durations, for the settings of a reader that composes
   * them: {@code value} when it is more than zero.
   *
   * @throws IllegalArgumentException naming the setting when {@code value} is null, zero or
   *     negative
   */
  public static Duration requirePositive(Duration value, String name) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive but was " + value);
    }
    return value;
  }

  private static void requireName(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }

  /**
   * The six settings one by one, for the builder of a reader's settings that extends it ({@code B}
   * is that builder, so these setters chain with the reader's own). The reader's builder sets its
   * defaults first; every setting is checked when {@link #settings()} builds the record.
   */
  public abstract static class Builder<B extends Builder<B>> {
    private final String consumer;
    private String group;
    private int batchSize;
    private Duration pollInterval;
    private Duration claimIdle;
    private Duration claimInterval;

    protected Builder(String consumer) {
      this.consumer = consumer;
    }

    @SuppressWarnings("unchecked") // B is the subclass this is (Builder<B extends Builder<B>>)
    private B self() {
      return (B) this;
    }

    /** Every setting but the consumer from {@code events} (a reader's toBuilder). */
    public B events(EventsConsumerSettings events) {
      return group(events.group)
          .batchSize(events.batchSize)
          .pollInterval(events.pollInterval)
          .claimIdle(events.claimIdle)
          .claimInterval(events.claimInterval);
    }

    public B group(String group) {
      this.group = group;
      return self();
    }

    public B batchSize(int batchSize) {
      this.batchSize = batchSize;
      return self();
    }

    public B pollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
      return self();
    }

    public B claimIdle(Duration claimIdle) {
      this.claimIdle = claimIdle;
      return self();
    }

    public B claimInterval(Duration claimInterval) {
      this.claimInterval = claimInterval;
      return self();
    }

    /** The settings as set so far, checked. */
    protected EventsConsumerSettings settings() {
      return new EventsConsumerSettings(
          group, consumer, batchSize, pollInterval, claimIdle, claimInterval);
    }
  }
}
