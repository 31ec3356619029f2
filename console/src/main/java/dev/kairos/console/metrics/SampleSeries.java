package dev.kairos.console.metrics;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The last N samples, made from successive totals: each sample is the difference to the previous
 * totals. Bounded: the oldest sample goes when a new one would exceed the capacity. Thread-safe
 * (the sampler thread adds, page requests read).
 */
public final class SampleSeries {

  private final int capacity;
  private final ArrayDeque<DashboardSample> samples = new ArrayDeque<>();
  private MeterTotals previous;

  public SampleSeries(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  /** Adds the totals read now; the first call only sets the baseline. */
  public synchronized void add(MeterTotals totals) {
    MeterTotals before = previous;
    previous = totals;
    if (before == null || totals.atMs() <= before.atMs()) {
      return;
    }
    double seconds = (totals.atMs() - before.atMs()) / 1000.0;
    // A counter that went down means the node's registry was reset: count from zero again.
    double fired = nonNegative(totals.dispatched() - before.dispatched(), totals.dispatched());
    LatencyBuckets started = totals.startLateness().since(before.startLateness());
    samples.addLast(
        new DashboardSample(
            totals.atMs(),
            fired / seconds,
            totals.latenessP50Ms(),
            totals.latenessP99Ms(),
            nonNegative(totals.misfires() - before.misfires(), totals.misfires()),
            nonNegative(totals.failures() - before.failures(), totals.failures()),
            started.percentileMs(0.5),
            started.percentileMs(0.99)));
    while (samples.size() > capacity) {
      samples.removeFirst();
    }
  }

  public synchronized List<DashboardSample> samples() {
    return List.copyOf(samples);
  }

  /** The latest totals (running counts since the node started), or null before the first. */
  public synchronized MeterTotals latestTotals() {
    return previous;
  }

  private static double nonNegative(double delta, double current) {
    return delta >= 0 ? delta : current;
  }
}
