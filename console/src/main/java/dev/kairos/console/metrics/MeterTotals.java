package dev.kairos.console.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The node's meters the dashboard charts, read at one instant: running totals of counters (summed
 * over their tags), the buckets of the start-lateness histogram and the dispatch-lateness
 * percentiles the node's timer publishes.
 *
 * @param dispatched triggers the broker acknowledged ({@code kairos.fires.dispatched})
 * @param misfires fires the scanner judged misfired ({@code kairos.scan.misfires}; leader only)
 * @param failures results FAIL or TIMEOUT plus fires ended NO_EXECUTOR
 * @param latenessP50Ms p50 of send time − fire time ({@code kairos.fires.dispatch.lateness}), NaN
 *     when the node has sent nothing yet
 * @param startLateness handler start − fire time of the triggers whose end this node's lifecycle
 *     worker handled ({@code kairos.triggers.start.lateness}, a histogram since the node started);
 *     the worker shares the trigger streams with the other nodes, so this is its share of all
 *     triggers
 */
public record MeterTotals(
    long atMs,
    double dispatched,
    double misfires,
    double failures,
    double latenessP50Ms,
    double latenessP99Ms,
    LatencyBuckets startLateness) {

  /** Totals without start-lateness buckets (a node without the lifecycle worker). */
  public MeterTotals(
      long atMs,
      double dispatched,
      double misfires,
      double failures,
      double latenessP50Ms,
      double latenessP99Ms) {
    this(atMs, dispatched, misfires, failures, latenessP50Ms, latenessP99Ms, LatencyBuckets.EMPTY);
  }

  static final String DISPATCHED = "kairos.fires.dispatched";
  static final String MISFIRES = "kairos.scan.misfires";
  static final String RESULTS = "kairos.results";
  static final String NO_EXECUTOR = "kairos.fires.no.executor";
  static final String LATENESS = "kairos.fires.dispatch.lateness";
  static final String START_LATENESS = "kairos.triggers.start.lateness";
  static final Set<String> FAILED_STATUSES = Set.of("FAIL", "TIMEOUT");

  public static MeterTotals read(MeterRegistry meters, long nowMs) {
    double failed =
        meters.find(RESULTS).counters().stream()
                .filter(c -> FAILED_STATUSES.contains(c.getId().getTag("status")))
                .mapToDouble(Counter::count)
                .sum()
            + sum(meters, NO_EXECUTOR);
    double p50 = Double.NaN;
    double p99 = Double.NaN;
    for (Timer timer : meters.find(LATENESS).timers()) {
      for (ValueAtPercentile v : timer.takeSnapshot().percentileValues()) {
        double ms = v.value(TimeUnit.MILLISECONDS);
        // One timer per node name; with several, the worst one is what an operator must see.
        if (v.percentile() == 0.5) {
          p50 = Double.isNaN(p50) ? ms : Math.max(p50, ms);
        } else if (v.percentile() == 0.99) {
          p99 = Double.isNaN(p99) ? ms : Math.max(p99, ms);
        }
      }
    }
    return new MeterTotals(
        nowMs,
        sum(meters, DISPATCHED),
        sum(meters, MISFIRES),
        failed,
        p50,
        p99,
        LatencyBuckets.read(meters.find(START_LATENESS).timers()));
  }

  private static double sum(MeterRegistry meters, String name) {
    return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
  }
}
