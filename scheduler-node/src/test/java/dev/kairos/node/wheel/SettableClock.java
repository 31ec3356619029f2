package dev.kairos.node.wheel;

import java.util.concurrent.atomic.AtomicLong;

/** A clock tests set by hand; thread-safe so a ticker thread can read it. */
final class SettableClock implements WheelClock {

  private final AtomicLong nowMs;

  SettableClock(long startMs) {
    this.nowMs = new AtomicLong(startMs);
  }

  @Override
  public long nowMs() {
    return nowMs.get();
  }

  void set(long ms) {
    nowMs.set(ms);
  }
}
