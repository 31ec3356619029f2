package dev.kairos.core.time;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests set and advance instead of sleeping. Thread-safe. */
public final class SettableClock implements KairosClock {

  private final AtomicLong now;

  public SettableClock(long startMs) {
    this.now = new AtomicLong(startMs);
  }

  @Override
  public long nowMs() {
    return now.get();
  }

  public void set(long epochMs) {
    now.set(epochMs);
  }

  /** Moves the clock forward (or back, with a negative duration) and returns the new time. */
  public long advance(Duration by) {
    return now.addAndGet(by.toMillis());
  }
}
