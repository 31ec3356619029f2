package dev.kairos.core.model;

import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * How long the scheduler waits before retry attempt {@code n} of a failed trigger.
 *
 * <p>Stored in the job hash as {@code KIND:initialDelayMs:maxDelayMs:jitter} (for example {@code
 * EXPONENTIAL:1000:60000:0.2}), a form that scripts, SQL and humans can read without a JSON parser.
 *
 * @param kind FIXED waits {@code initialDelayMs} every time; EXPONENTIAL doubles it per attempt
 * @param initialDelayMs delay before the first retry, ≥ 0
 * @param maxDelayMs upper bound of any delay, ≥ {@code initialDelayMs}
 * @param jitter fraction in [0, 1]: the delay is drawn uniformly from {@code [d·(1−jitter), d]} so
 *     retries of many jobs failing together spread out instead of stampeding
 */
public record RetryBackoff(Kind kind, long initialDelayMs, long maxDelayMs, double jitter) {

  public enum Kind {
    FIXED,
    EXPONENTIAL
  }

  /** One second between attempts, no jitter. */
  public static final RetryBackoff DEFAULT = new RetryBackoff(Kind.FIXED, 1_000, 1_000, 0.0);

  public RetryBackoff {
    Objects.requireNonNull(kind, "kind");
  }

  public static RetryBackoff fixed(long delayMs) {
    return new RetryBackoff(Kind.FIXED, delayMs, delayMs, 0.0);
  }

  public static RetryBackoff exponential(long initialDelayMs, long maxDelayMs, double jitter) {
    return new RetryBackoff(Kind.EXPONENTIAL, initialDelayMs, maxDelayMs, jitter);
  }

  /**
   * Delay before retry {@code attempt} (1 = first retry).
   *
   * @param random uniform values in [0, 1), injected so tests are deterministic
   */
  public long delayBeforeAttempt(int attempt, DoubleSupplier random) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1 but was " + attempt);
    }
    long delay = initialDelayMs;
    if (kind == Kind.EXPONENTIAL) {
      // Doubling past 62 shifts overflows; the cap is reached long before that anyway.
      int shift = Math.min(attempt - 1, 62);
      delay = initialDelayMs > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : initialDelayMs << shift;
    }
    delay = Math.min(delay, maxDelayMs);
    if (jitter > 0 && delay > 0) {
      delay -= (long) (delay * jitter * random.getAsDouble());
    }
    return delay;
  }

  /** The hash form, {@code KIND:initialDelayMs:maxDelayMs:jitter}. */
  public String encode() {
    return kind + ":" + initialDelayMs + ":" + maxDelayMs + ":" + jitter;
  }

  /** Inverse of {@link #encode()}; throws IllegalArgumentException on anything else. */
  public static RetryBackoff decode(String text) {
    String[] parts = text == null ? new String[0] : text.split(":", -1);
    if (parts.length != 4) {
      throw new IllegalArgumentException("not a retry backoff (KIND:initial:max:jitter): " + text);
    }
    try {
      return new RetryBackoff(
          Kind.valueOf(parts[0]),
          Long.parseLong(parts[1]),
          Long.parseLong(parts[2]),
          Double.parseDouble(parts[3]));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a retry backoff (KIND:initial:max:jitter): " + text);
    }
  }
}
