package dev.kairos.core.log;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Keeps a recurring log line to at most one per interval, carrying how many occurrences it stands
 * for: a burst (a thousand deleted jobs' fires dropped in one second) becomes one line, not a line
 * per fire. Thread-safe and lock-free.
 */
public final class LogThrottle {

  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final AtomicLong nextNanos;
  private final AtomicLong pending = new AtomicLong();

  /**
   * @param interval the least time between two lines
   * @param nanoTime a monotonic clock ({@code System::nanoTime}); the first occurrence may log
   */
  public LogThrottle(Duration interval, LongSupplier nanoTime) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive: " + interval);
    }
    this.intervalNanos = interval.toNanos();
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    this.nextNanos = new AtomicLong(nanoTime.getAsLong());
  }

  /**
   * Records {@code count} occurrences. Returns how many occurrences the caller should log now (the
   * ones since the last line, these included), or 0 when a line was logged less than an interval
   * ago: the occurrences wait for the next line.
   */
  public long record(long count) {
    long since = pending.addAndGet(count);
    long now = nanoTime.getAsLong();
    long next = nextNanos.get();
    if (now - next >= 0 && nextNanos.compareAndSet(next, now + intervalNanos)) {
      pending.addAndGet(-since);
      return since;
    }
    return 0;
  }
}
