package dev.kairos.bench;

import java.util.function.BiConsumer;

/**
 * Adds the fires of each second {@code leadSeconds} before that second starts, as the node does
 * when the leader's claims arrive ahead of time (pre-read). Runs on the caller's thread.
 */
final class Feeder {

  private Feeder() {}

  /**
   * @param add receives (index within the second, fire ms)
   * @return the first second (epoch ms) that was fed
   */
  static long feed(
      MicroClock clock,
      Workload workload,
      int perSecond,
      int seconds,
      int leadSeconds,
      BiConsumer<Integer, Long> add)
      throws InterruptedException {
    long first = (clock.nowMs() / 1000 + leadSeconds + 1) * 1000;
    for (int k = 0; k < seconds; k++) {
      long second = first + k * 1000L;
      long addAt = second - leadSeconds * 1000L;
      long wait;
      while ((wait = addAt - clock.nowMs()) > 0) {
        Thread.sleep(Math.min(wait, 50));
      }
      for (int i = 0; i < perSecond; i++) {
        add.accept(i, workload.fireMs(second, i, perSecond));
      }
    }
    return first;
  }

  /** Sleeps until {@code condition} holds or {@code timeoutMs} passes; returns whether it held. */
  static boolean await(long timeoutMs, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }
}
