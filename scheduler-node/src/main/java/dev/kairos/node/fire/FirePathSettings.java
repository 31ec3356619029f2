package dev.kairos.node.fire;

import dev.kairos.core.timer.WheelTicker;
import dev.kairos.node.cluster.TimingParameters;
import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of one {@link NodeFirePath}.
 *
 * @param batchSize most due entries per dispatch task
 * @param dispatchThreads threads taking, routing and sending due entries
 * @param ackThreads threads recording broker acknowledgements in Redis
 * @param maxPending most entries held by the in-memory wheel
 * @param preRead how far ahead of now the persisted wheel is read into memory
 * @param reconcileInterval how often the persisted wheel is re-read
 * @param sweepInterval how often inflight entries are checked for a re-send
 * @param resendAfter how long an entry may stay inflight before it is re-sent
 * @param maxUnackedSends most sends awaiting a broker answer at once (the send window)
 * @param noExecutorGrace how long a trigger that finds no live executor slot waits for one (checked
 *     every second) before it ends NO_EXECUTOR; shorter than {@code resendAfter}, so the inflight
 *     sweeper never re-sends a trigger that is still waiting
 * @param ackLinger how long a broker acknowledgement waits for others of its shard before they are
 *     recorded together ({@link DeferredAcks}); zero records each at once; below {@code
 *     resendAfter}
 * @param wheelTick the grid due entries are handed out on ({@link WheelTicker}): zero hands each
 *     out at its own millisecond; a tick of {@code q} ms groups the fires of each {@code q} ms into
 *     one hand-off, at most {@code q - 1} ms late
 * @param preDispatch how long before its fire time an entry is taken off the wheel and sent: the
 *     executor holds the trigger until its fire time and starts it then, so a burst's takes, sends
 *     and broker round trips happen before it is due instead of after; zero sends at the fire time
 */
public record FirePathSettings(
    int batchSize,
    int dispatchThreads,
    int ackThreads,
    int maxPending,
    Duration preRead,
    Duration reconcileInterval,
    Duration sweepInterval,
    Duration resendAfter,
    int maxUnackedSends,
    Duration noExecutorGrace,
    Duration ackLinger,
    Duration wheelTick,
    Duration preDispatch) {

  public static final int DEFAULT_BATCH_SIZE = 64;
  public static final int DEFAULT_DISPATCH_THREADS = 4;
  public static final int DEFAULT_ACK_THREADS = 4;
  public static final int DEFAULT_MAX_PENDING = 1_000_000;
  public static final Duration DEFAULT_PRE_READ = TimingParameters.DEFAULT_PRE_READ;
  public static final Duration DEFAULT_RECONCILE_INTERVAL =
      TimingParameters.DEFAULT_WHEEL_RECONCILE_INTERVAL;
  public static final Duration DEFAULT_SWEEP_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_RESEND_AFTER = Duration.ofSeconds(10);

  /** Default send window: a slow broker makes fires late rather than failing them. */
  public static final int DEFAULT_MAX_UNACKED_SENDS = 2_000;

  /**
   * Default wait for a live executor: covers executors re-registering after a Redis restart or a
   * node restart (leases renew every 3 s) and stays below the default re-send delay (10 s).
   */
  public static final Duration DEFAULT_NO_EXECUTOR_GRACE = Duration.ofSeconds(8);

  /**
   * Default ack linger: with fires spread over 64 shards, half a second lets one script call record
   * several acks of a shard at a few hundred fires a second per node.
   */
  public static final Duration DEFAULT_ACK_LINGER = Duration.ofMillis(500);

  /** By default each due entry is handed out at its own millisecond. */
  public static final Duration DEFAULT_WHEEL_TICK = Duration.ZERO;

  /**
   * Default pre-dispatch lead: long enough for a node to take and send a burst of a few thousand
   * fires due on the same millisecond before it is due, short enough that the leader (which claims
   * a fire a pre-read window ahead, 5 s by default) has always put it on a wheel by then.
   */
  public static final Duration DEFAULT_PRE_DISPATCH = TimingParameters.DEFAULT_PRE_DISPATCH;

  /** Most entries read per shard by one reconcile, and moved per shard by one take or sweep. */
  public static final int PER_SHARD_LIMIT = 10_000;

  /** Most dispatch tasks or acks queued before new ones are refused (and left to Redis). */
  public static final int QUEUE_CAPACITY = 100_000;

  public FirePathSettings {
    Objects.requireNonNull(preRead, "preRead");
    Objects.requireNonNull(reconcileInterval, "reconcileInterval");
    Objects.requireNonNull(sweepInterval, "sweepInterval");
    Objects.requireNonNull(resendAfter, "resendAfter");
    Objects.requireNonNull(noExecutorGrace, "noExecutorGrace");
    Objects.requireNonNull(ackLinger, "ackLinger");
    Objects.requireNonNull(wheelTick, "wheelTick");
    Objects.requireNonNull(preDispatch, "preDispatch");
    if (preDispatch.isNegative() || preDispatch.compareTo(preRead) >= 0) {
      throw new IllegalArgumentException(
          "preDispatch ("
              + preDispatch
              + ") must be 0 or more and below the pre-read ("
              + preRead
              + ")");
    }
    if (wheelTick.isNegative() || wheelTick.compareTo(WheelTicker.MAX_TICK) > 0) {
      throw new IllegalArgumentException(
          "wheelTick (" + wheelTick + ") must be 0 to " + WheelTicker.MAX_TICK);
    }
    if (ackLinger.isNegative() || ackLinger.compareTo(resendAfter) >= 0) {
      throw new IllegalArgumentException(
          "ackLinger ("
              + ackLinger
              + ") must be >= 0 and shorter than the inflight re-send delay ("
              + resendAfter
              + ")");
    }
    if (noExecutorGrace.isNegative() || noExecutorGrace.compareTo(resendAfter) >= 0) {
      throw new IllegalArgumentException(
          "noExecutorGrace ("
              + noExecutorGrace
              + ") must be >= 0 and shorter than the inflight re-send delay ("
              + resendAfter
              + ")");
    }
    if (batchSize < 1
        || dispatchThreads < 1
        || ackThreads < 1
        || maxPending < 1
        || maxUnackedSends < 1) {
      throw new IllegalArgumentException(
          "batchSize, dispatchThreads, ackThreads, maxPending and maxUnackedSends must be >= 1");
    }
    for (Duration d : new Duration[] {preRead, reconcileInterval, sweepInterval, resendAfter}) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("fire path durations must be positive: " + d);
      }
    }
  }

  /** What a node ships with (docs/configuration.md, {@code kairos.fire.*}). */
  public static FirePathSettings defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    return new Builder()
        .batchSize(batchSize)
        .dispatchThreads(dispatchThreads)
        .ackThreads(ackThreads)
        .maxPending(maxPending)
        .preRead(preRead)
        .reconcileInterval(reconcileInterval)
        .sweepInterval(sweepInterval)
        .resendAfter(resendAfter)
        .maxUnackedSends(maxUnackedSends)
        .noExecutorGrace(noExecutorGrace)
        .ackLinger(ackLinger)
        .wheelTick(wheelTick)
        .preDispatch(preDispatch);
  }

  /** Settings one by one; every one not set keeps its default. */
  public static final class Builder {
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int dispatchThreads = DEFAULT_DISPATCH_THREADS;
    private int ackThreads = DEFAULT_ACK_THREADS;
    private int maxPending = DEFAULT_MAX_PENDING;
    private Duration preRead = DEFAULT_PRE_READ;
    private Duration reconcileInterval = DEFAULT_RECONCILE_INTERVAL;
    private Duration sweepInterval = DEFAULT_SWEEP_INTERVAL;
    private Duration resendAfter = DEFAULT_RESEND_AFTER;
    private int maxUnackedSends = DEFAULT_MAX_UNACKED_SENDS;
    private Duration noExecutorGrace = DEFAULT_NO_EXECUTOR_GRACE;
    private Duration ackLinger = DEFAULT_ACK_LINGER;
    private Duration wheelTick = DEFAULT_WHEEL_TICK;
    private Duration preDispatch = DEFAULT_PRE_DISPATCH;

    private Builder() {}

    public Builder batchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    public Builder dispatchThreads(int dispatchThreads) {
      this.dispatchThreads = dispatchThreads;
      return this;
    }

    public Builder ackThreads(int ackThreads) {
      this.ackThreads = ackThreads;
      return this;
    }

    public Builder maxPending(int maxPending) {
      this.maxPending = maxPending;
      return this;
    }

    public Builder preRead(Duration preRead) {
      this.preRead = preRead;
      return this;
    }

    public Builder reconcileInterval(Duration reconcileInterval) {
      this.reconcileInterval = reconcileInterval;
      return this;
    }

    public Builder sweepInterval(Duration sweepInterval) {
      this.sweepInterval = sweepInterval;
      return this;
    }

    public Builder resendAfter(Duration resendAfter) {
      this.resendAfter = resendAfter;
      return this;
    }

    public Builder maxUnackedSends(int maxUnackedSends) {
      this.maxUnackedSends = maxUnackedSends;
      return this;
    }

    public Builder noExecutorGrace(Duration noExecutorGrace) {
      this.noExecutorGrace = noExecutorGrace;
      return this;
    }

    public Builder ackLinger(Duration ackLinger) {
      this.ackLinger = ackLinger;
      return this;
    }

    public Builder wheelTick(Duration wheelTick) {
      this.wheelTick = wheelTick;
      return this;
    }

    public Builder preDispatch(Duration preDispatch) {
      this.preDispatch = preDispatch;
      return this;
    }

    public FirePathSettings build() {
      return new FirePathSettings(
          batchSize,
          dispatchThreads,
          ackThreads,
          maxPending,
          preRead,
          reconcileInterval,
          sweepInterval,
          resendAfter,
          maxUnackedSends,
          noExecutorGrace,
          ackLinger,
          wheelTick,
          preDispatch);
    }
  }
}
