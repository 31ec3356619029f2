package dev.kairos.drills;

import java.util.Collection;

/** Start lateness (first handler start − scheduled fire time) in ms over a set of fires. */
public record Lateness(int count, long p50, long p99, long max) {

  /** Nearest-rank quantiles of {@code values}; all zero when empty. */
  public static Lateness of(Collection<Long> values) {
    long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
    if (sorted.length == 0) {
      return new Lateness(0, 0, 0, 0);
    }
    return new Lateness(
        sorted.length, rank(sorted, 0.50), rank(sorted, 0.99), sorted[sorted.length - 1]);
  }

  private static long rank(long[] sorted, double q) {
    int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  @Override
  public String toString() {
    return "n=" + count + " p50=" + p50 + "ms p99=" + p99 + "ms max=" + max + "ms";
  }
}
