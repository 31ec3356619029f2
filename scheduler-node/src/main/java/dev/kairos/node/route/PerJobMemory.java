package dev.kairos.node.route;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.function.Function;

/**
 * Per-job routing memory of this node (ROUND, LFU, LRU), bounded in size and forgotten after a day
 * without fires, as xxl-job resets its per-job route counters daily. Losing an entry only restarts
 * that job's rotation. Thread-safe; the values guard their own state.
 */
final class PerJobMemory<T> {

  /** Most jobs remembered per strategy; beyond it the least recently routed are forgotten. */
  static final long MAX_JOBS = 100_000;

  /** A job not routed for this long starts afresh. */
  static final Duration FORGET_AFTER = Duration.ofHours(24);

  private final Cache<String, T> byJob;
  private final Function<String, T> initial;

  PerJobMemory(Function<String, T> initial, Ticker ticker) {
    this.initial = initial;
    this.byJob =
        Caffeine.newBuilder()
            .maximumSize(MAX_JOBS)
            .expireAfterAccess(FORGET_AFTER)
            .ticker(ticker)
            .build();
  }

  T of(String jobId) {
    return byJob.get(jobId, initial);
  }
}
