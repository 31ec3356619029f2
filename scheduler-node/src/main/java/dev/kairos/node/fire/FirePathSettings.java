package dev.kairos.node.fire;

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
 */
public record FirePathSettings(
    int batchSize,
    int dispatchThreads,
    int ackThreads,
    int maxPending,
    Duration preRead,
    Duration reconcileInterval,
    Duration sweepInterval,
    Duration resendAfter) {

  /** Most entries read per shard by one reconcile, and moved per shard by one take or sweep. */
  public static final int PER_SHARD_LIMIT = 10_000;

  /** Most dispatch tasks or acks queued before new ones are refused (and left to Redis). */
  public static final int QUEUE_CAPACITY = 100_000;

  public FirePathSettings {
    Objects.requireNonNull(preRead, "preRead");
    Objects.requireNonNull(reconcileInterval, "reconcileInterval");
    Objects.requireNonNull(sweepInterval, "sweepInterval");
    Objects.requireNonNull(resendAfter, "resendAfter");
    if (batchSize < 1 || dispatchThreads < 1 || ackThreads < 1 || maxPending < 1) {
      throw new IllegalArgumentException(
          "batchSize, dispatchThreads, ackThreads and maxPending must be >= 1");
    }
    for (Duration d : new Duration[] {preRead, reconcileInterval, sweepInterval, resendAfter}) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("fire path durations must be positive: " + d);
      }
    }
  }
}
