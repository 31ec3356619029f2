package dev.kairos.console.metrics;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * A histogram timer's buckets at one instant: upper bounds in ms and the cumulative count of values
 * at or below each, since the meter was created (what Prometheus scrapes as {@code _bucket}). Two
 * readings make the histogram of what was recorded between them, and its percentiles are read like
 * Prometheus' {@code histogram_quantile}: linear within the bucket the rank falls in.
 */
public record LatencyBuckets(double[] upperMs, double[] cumulative) {

  /** No timer, or one without buckets. */
  public static final LatencyBuckets EMPTY = new LatencyBuckets(new double[0], new double[0]);

  public LatencyBuckets {
    if (upperMs.length != cumulative.length) {
      throw new IllegalArgumentException("one count per bucket bound");
    }
  }

  /** The buckets of the timers (summed: one per tag set), or {@link #EMPTY}. */
  public static LatencyBuckets read(Collection<Timer> timers) {
    double[] upper = null;
    double[] counts = null;
    for (Timer timer : timers) {
      CountAtBucket[] buckets = timer.takeSnapshot().histogramCounts();
      if (buckets.length == 0) {
        continue;
      }
      if (upper == null) {
        upper = new double[buckets.length];
        counts = new double[buckets.length];
        for (int i = 0; i < buckets.length; i++) {
          upper[i] = buckets[i].bucket(TimeUnit.MILLISECONDS);
        }
      } else if (upper.length != buckets.length) {
        continue; // a timer with another layout cannot be summed bucket by bucket
      }
      for (int i = 0; i < buckets.length; i++) {
        counts[i] += buckets[i].count();
      }
    }
    return upper == null ? EMPTY : new LatencyBuckets(upper, counts);
  }

  /**
   * What was recorded after {@code before}: the bucket-wise difference, or this reading itself when
   * the timer was reset (a count went down) or the layouts differ.
   */
  public LatencyBuckets since(LatencyBuckets before) {
    if (before == null || !Arrays.equals(upperMs, before.upperMs)) {
      return this;
    }
    double[] delta = new double[cumulative.length];
    for (int i = 0; i < delta.length; i++) {
      delta[i] = cumulative[i] - before.cumulative[i];
      if (delta[i] < 0) {
        return this;
      }
    }
    return new LatencyBuckets(upperMs, delta);
  }

  /** Values counted (the last bucket's cumulative count). */
  public double count() {
    return cumulative.length == 0 ? 0 : cumulative[cumulative.length - 1];
  }

  /**
   * The {@code q} quantile in ms (0 &lt; q &lt;= 1), NaN when nothing was counted; a rank beyond
   * the last bound answers the last bound (the histogram's range ends there).
   */
  public double percentileMs(double q) {
    double total = count();
    if (total <= 0) {
      return Double.NaN;
    }
    double rank = q * total;
    double lowerBound = 0;
    double lowerCount = 0;
    for (int i = 0; i < cumulative.length; i++) {
      if (cumulative[i] >= rank) {
        double inBucket = cumulative[i] - lowerCount;
        double fraction = inBucket <= 0 ? 1 : (rank - lowerCount) / inBucket;
        return lowerBound + (upperMs[i] - lowerBound) * fraction;
      }
      lowerBound = upperMs[i];
      lowerCount = cumulative[i];
    }
    return upperMs[upperMs.length - 1];
  }
}
