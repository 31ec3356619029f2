package dev.kairos.drills.bench;

/**
 * The ladder's stop rule and the per-fire CPU arithmetic, kept apart so they are tested as plain
 * functions.
 */
public final class KeepUp {

  /** A row keeps up while fewer than this fraction of its expected fires are missed. */
  public static final double MAX_MISSED_FRACTION = 0.001;

  /** ... and its start lateness p99 stays below this. */
  public static final long MAX_P99_MS = 1_000;

  private KeepUp() {}

  /**
   * Whether a row kept up: missed ≤ 0.1 % of the expected fires and p99 &lt; 1 s. A row that
   * expected no fires, or started none of them, did not.
   */
  public static boolean keepsUp(long expected, long missed, long started, long p99Ms) {
    if (expected <= 0 || started <= 0) {
      return false;
    }
    return missed <= expected * MAX_MISSED_FRACTION && p99Ms < MAX_P99_MS;
  }

  /** CPU µs per fire: {@code cpuMicros / fires}, NaN when no fire ran. */
  public static double microsPerFire(long cpuMicros, long fires) {
    return fires <= 0 ? Double.NaN : (double) cpuMicros / fires;
  }
}
