package dev.kairos.core.model;

import java.util.Optional;

/**
 * A job's start-lateness objective: over the last {@code windowMs}, the {@code percentile}-th
 * percentile of its scheduled fires' start lateness (handler start − scheduled fire time) stays at
 * or below {@code thresholdMs}. "p99 ≤ 1 s over 1 h" is {@code new LatenessObjective(99, 1000,
 * 3_600_000)}.
 *
 * <p>Stored in the job hash as {@code percentile:thresholdMs:windowMs} (for example {@code
 * 99.0:1000:3600000}), "" for none, like {@link RetryBackoff}: readable by scripts, SQL and people.
 * Bounds are checked by {@code JobValidator}, so a record may hold an invalid objective to report.
 *
 * @param percentile in (0, 100): 50 is the median, 99.9 the slowest thousandth
 * @param thresholdMs the lateness that percentile may reach, 1 ms .. 7 days
 * @param windowMs how far back the fires are counted, {@link #MIN_WINDOW_MS} .. 7 days
 */
public record LatenessObjective(double percentile, long thresholdMs, long windowMs) {

  public static final long MIN_WINDOW_MS = 60_000;

  /** The hash form, {@code percentile:thresholdMs:windowMs}. */
  public String encode() {
    return percentile + ":" + thresholdMs + ":" + windowMs;
  }

  /** The hash form of an optional objective: "" for none. */
  public static String encode(Optional<LatenessObjective> objective) {
    return objective.map(LatenessObjective::encode).orElse("");
  }

  /**
   * Inverse of {@link #encode(Optional)}: null (a hash from before the field) and "" read as none.
   *
   * @throws IllegalArgumentException on anything else
   */
  public static Optional<LatenessObjective> decode(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    String[] parts = text.split(":", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException(
          "not a lateness objective (percentile:thresholdMs:windowMs): " + text);
    }
    try {
      return Optional.of(
          new LatenessObjective(
              Double.parseDouble(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "not a lateness objective (percentile:thresholdMs:windowMs): " + text);
    }
  }

  /** "p99 ≤ 1000 ms over 60 min", for titles and logs. */
  public String describe() {
    String p =
        percentile == Math.rint(percentile)
            ? Long.toString((long) percentile)
            : Double.toString(percentile);
    return "p" + p + " ≤ " + thresholdMs + " ms over " + describeWindow(windowMs);
  }

  private static String describeWindow(long ms) {
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + " h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + " min";
    }
    return ms + " ms";
  }
}
