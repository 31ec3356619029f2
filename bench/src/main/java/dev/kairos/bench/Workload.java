package dev.kairos.bench;

/** When the N fires of one second are due. */
public enum Workload {
  /** N fires spread evenly over the second: fire i at {@code second + i * 1000 / N} ms. */
  W1,
  /** N fires all due on the same millisecond, the first of the second: the burst case. */
  W2;

  public long fireMs(long secondStartMs, int i, int perSecond) {
    return this == W1 ? secondStartMs + (i * 1000L) / perSecond : secondStartMs;
  }
}
