package dev.kairos.bench;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fixed-capacity, thread-safe store of latency samples in microseconds; percentiles by sorting a
 * copy (exact, not a histogram approximation). Samples beyond the capacity are counted as dropped.
 */
public final class Recorder {

  private final long[] samples;
  private final AtomicInteger next = new AtomicInteger();

  public Recorder(int capacity) {
    this.samples = new long[capacity];
  }

  public void record(long micros) {
    int i = next.getAndIncrement();
    if (i < samples.length) {
      samples[i] = micros;
    }
  }

  public int count() {
    return Math.min(next.get(), samples.length);
  }

  public int dropped() {
    return Math.max(0, next.get() - samples.length);
  }

  /** A sorted copy of what was recorded so far. */
  public long[] sorted() {
    long[] copy = Arrays.copyOf(samples, count());
    Arrays.sort(copy);
    return copy;
  }

  /**
   * The nearest-rank percentile ({@code p} in [0, 100]) of sorted samples: the smallest value with
   * at least p % of the samples at or below it. Empty input gives -1.
   */
  public static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return -1;
    }
    if (p <= 0) {
      return sorted[0];
    }
    // The epsilon keeps an exact rank exact: 99.9 % of 1000 is 999, not 999.0000000000001 → 1000.
    int rank = (int) Math.ceil(p * sorted.length / 100.0 - 1e-9);
    return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
  }

  /** "p50 / p99 / p99.9 / max" in milliseconds with 2 decimals, from microsecond samples. */
  public static String summaryMs(long[] sorted) {
    return String.format(
        "%8.2f %8.2f %8.2f %8.2f",
        percentile(sorted, 50) / 1000.0,
        percentile(sorted, 99) / 1000.0,
        percentile(sorted, 99.9) / 1000.0,
        percentile(sorted, 100) / 1000.0);
  }
}
