package dev.kairos.sync.history.read;

import java.util.Map;

/**
 * One job's triggers scheduled in [fromMs, toMs).
 *
 * @param total every trigger in the range, whatever its state
 * @param finished triggers in a final state
 * @param successRate SUCCESS / finished, null when none finished
 * @param byState trigger count per state (states with none are left out)
 * @param durations run durations of the triggers that started and ended
 */
public record JobStats(
    String jobId,
    long fromMs,
    long toMs,
    long total,
    long finished,
    long success,
    Double successRate,
    Map<String, Long> byState,
    Durations durations) {

  /**
   * @param count triggers with both a start and an end
   * @param p50Ms interpolated percentiles, null when {@code count} is 0
   */
  public record Durations(long count, Double p50Ms, Double p90Ms, Double p99Ms, Long maxMs) {}
}
