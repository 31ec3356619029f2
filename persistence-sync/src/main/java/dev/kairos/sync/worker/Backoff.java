package dev.kairos.sync.worker;

import java.time.Duration;

/** Doubling back-off between an initial and a maximum delay. Not thread-safe: one owner thread. */
public final class Backoff {

  private final long initialMs;
  private final long maxMs;
  private long nextMs;

  public Backoff(Duration initial, Duration max) {
    this.initialMs = initial.toMillis();
    this.maxMs = Math.max(initialMs, max.toMillis());
    this.nextMs = initialMs;
  }

  public long next() {
    long delay = nextMs;
    nextMs = Math.min(maxMs, nextMs * 2);
    return delay;
  }

  public void reset() {
    nextMs = initialMs;
  }
}
