package dev.kairos.sync.history.read;

/**
 * Run durations ({@code ended_ms - started_ms}) of the triggers that started and ended, in ms; the
 * percentiles are PostgreSQL's {@code percentile_cont} (interpolated), null when nothing ran. A
 * projection of a native query: its column aliases name these getters.
 */
public interface DurationPercentiles {

  /** How many triggers had both a start and an end. */
  long getTimed();

  Double getP50();

  Double getP90();

  Double getP99();

  Long getMax();
}
