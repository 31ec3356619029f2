package dev.kairos.node.lifecycle.guard;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds of the lost-trigger monitor.
 *
 * @param interval pause between two passes over every shard
 * @param startTimeout a DISPATCHED trigger on a live slot not started this long after its last
 *     dispatch is published again, once its executor has received it (the lease's progress)
 * @param backlogLimit a DISPATCHED trigger on a live slot not started this long after its last
 *     dispatch is published again even if its executor has not yet received it; at least {@code
 *     startTimeout}
 * @param batchSize open triggers read, and verdicts written, per script call
 * @param maxPagesPerShard pages of {@code batchSize} read per shard in one pass; the rest waits for
 *     the next pass (logged)
 * @param maxReadRate open triggers read per second, averaged over a pass and the pause after it: a
 *     pass over a backlog pauses longer than {@code interval} ({@link PassPacing})
 */
record LostMonitorSettings(
    Duration interval,
    Duration startTimeout,
    Duration backlogLimit,
    int batchSize,
    int maxPagesPerShard,
    long maxReadRate) {

  LostMonitorSettings(
      Duration interval,
      Duration startTimeout,
      Duration backlogLimit,
      int batchSize,
      int maxPagesPerShard) {
    this(
        interval,
        startTimeout,
        backlogLimit,
        batchSize,
        maxPagesPerShard,
        PassPacing.DEFAULT_READS_PER_SECOND);
  }

  LostMonitorSettings {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(startTimeout, "startTimeout");
    Objects.requireNonNull(backlogLimit, "backlogLimit");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive: " + interval);
    }
    if (startTimeout.compareTo(interval) < 0) {
      throw new IllegalArgumentException(
          "startTimeout (" + startTimeout + ") must be at least the interval (" + interval + ")");
    }
    if (backlogLimit.compareTo(startTimeout) < 0) {
      throw new IllegalArgumentException(
          "backlogLimit ("
              + backlogLimit
              + ") must be at least the startTimeout ("
              + startTimeout
              + ")");
    }
    if (maxReadRate < 1) {
      throw new IllegalArgumentException("maxReadRate must be >= 1: " + maxReadRate);
    }
    if (batchSize < 1 || maxPagesPerShard < 1) {
      throw new IllegalArgumentException(
          "batchSize and maxPagesPerShard must be >= 1: " + batchSize + ", " + maxPagesPerShard);
    }
  }
}
