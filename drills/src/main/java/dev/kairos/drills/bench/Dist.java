package dev.kairos.drills.bench;

import java.util.Collection;
import org.HdrHistogram.Histogram;

/**
 * p50/p90/p99/max of a set of millisecond durations, from an HdrHistogram with 3 significant digits
 * (a reported value is within 0.1 % of the sample at that rank). Negative values (a clock read
 * before the event it follows) are recorded as 0 and counted in {@code negative}.
 */
record Dist(long count, long negative, long p50, long p90, long p99, long max) {

  static final Dist EMPTY = new Dist(0, 0, 0, 0, 0, 0);

  static Dist of(Collection<Long> millis) {
    if (millis.isEmpty()) {
      return EMPTY;
    }
    Histogram h = new Histogram(3);
    long negative = 0;
    for (long v : millis) {
      if (v < 0) {
        negative++;
      }
      h.recordValue(Math.max(0, v));
    }
    return new Dist(
        h.getTotalCount(),
        negative,
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(90),
        h.getValueAtPercentile(99),
        h.getMaxValue());
  }

  /** {@code p50 / p99} in ms, or "–" without samples. */
  String p50p99() {
    return count == 0 ? "–" : p50 + " / " + p99;
  }

  @Override
  public String toString() {
    return count == 0
        ? "n=0"
        : "n="
            + count
            + (negative > 0 ? " (" + negative + " negative, as 0)" : "")
            + " p50="
            + p50
            + " p90="
            + p90
            + " p99="
            + p99
            + " max="
            + max
            + " ms";
  }
}
