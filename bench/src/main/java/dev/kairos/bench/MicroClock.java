package dev.kairos.bench;

import dev.kairos.core.time.KairosClock;

/**
 * Wall time with microsecond resolution: epoch ms sampled once, advanced by {@code nanoTime}
 * (monotonic, like the node's cluster clock between samples). {@link #nowMs()} is what the wheel
 * fires on, {@link #nowMicros()} what lateness is measured with, so both read the same time line
 * and a fire handed out at ms M is at least 0 µs late against fire time M.
 */
public final class MicroClock implements KairosClock {

  private final long baseMicros = System.currentTimeMillis() * 1000;
  private final long baseNanos = System.nanoTime();

  public long nowMicros() {
    return baseMicros + (System.nanoTime() - baseNanos) / 1000;
  }

  @Override
  public long nowMs() {
    return Math.floorDiv(nowMicros(), 1000);
  }
}
