package dev.kairos.sync.worker;

import java.time.Duration;

/** Doubling back-off between an initial and a maximum delay. Only the worker thread uses it. */
final class Backoff {

  private final long initialMs;
  private final long maxMs;
  private long nextMs;

  Backoff(Duration initial, Duration max) {
    this.initialMs = initial.toMillis();
    this.maxMs = Math.max(initialMs, max.toMillis());
    this.nextMs = initialMs;
  }

  long next() {
    long delay = nextMs;
    nextMs = Math.min(maxMs, nextMs * 2);
    return delay;
  }

  void reset() {
    nextMs = initialMs;
  }
}
