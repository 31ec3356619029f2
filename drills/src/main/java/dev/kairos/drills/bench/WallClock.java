package dev.kairos.drills.bench;

/**
 * The wall-clock instants a row's phases begin at, and sleeping until one: a window is a timed
 * phase of the run, not a wait for a state (those poll with a deadline).
 */
final class WallClock {

  private WallClock() {}

  /** The first whole second strictly after {@code nowMs}. */
  static long nextWholeSecond(long nowMs) {
    return Math.floorDiv(nowMs, 1000) * 1000 + 1000;
  }

  /**
   * The first instant strictly after {@code nowMs} that lies {@code beforeMs} before a whole
   * minute: M1's window opens there, so every burst of it has that much quiet before it.
   */
  static long nextMinuteLess(long nowMs, long beforeMs) {
    return Math.floorDiv(nowMs + beforeMs, 60_000) * 60_000 + 60_000 - beforeMs;
  }

  /** Sleeps until the wall clock reads {@code epochMs}; returns it. */
  static long sleepUntil(long epochMs) throws InterruptedException {
    long left;
    while ((left = epochMs - System.currentTimeMillis()) > 0) {
      Thread.sleep(left);
    }
    return epochMs;
  }
}
