package dev.kairos.alarm;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounded exponential back-off of one channel's delivery retries: retry {@code n} (1-based) waits
 * {@code initialBackoff × multiplier^(n-1)}, capped at {@code maxBackoff}; after {@code maxRetries}
 * retries the delivery is given up.
 *
 * @param maxRetries retries after the first attempt (0 = one attempt only)
 * @param initialBackoff wait before the first retry
 * @param multiplier growth of the wait per retry (≥ 1)
 * @param maxBackoff the longest wait
 */
public record RetryPolicy(
    int maxRetries, Duration initialBackoff, double multiplier, Duration maxBackoff) {

  public static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO, 1, Duration.ZERO);

  /** Most retries a policy may ask for: a dead target must not pin a delivery for hours. */
  public static final int MAX_RETRIES = 20;

  public RetryPolicy {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (maxRetries < 0 || maxRetries > MAX_RETRIES) {
      throw new IllegalArgumentException(
          "maxRetries must be in 0.." + MAX_RETRIES + " but was " + maxRetries);
    }
    if (initialBackoff.isNegative() || maxBackoff.isNegative()) {
      throw new IllegalArgumentException("backoffs must not be negative");
    }
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "maxBackoff " + maxBackoff + " is below initialBackoff " + initialBackoff);
    }
    if (!(multiplier >= 1) || Double.isInfinite(multiplier)) {
      throw new IllegalArgumentException("multiplier must be a finite number ≥ 1: " + multiplier);
    }
  }

  /** Whether a delivery that has failed {@code failedAttempts} times may be tried again. */
  public boolean allowsRetryAfter(int failedAttempts) {
    return failedAttempts <= maxRetries;
  }

  /** The wait before retry {@code retry} (1-based). */
  public Duration backoffBefore(int retry) {
    if (retry < 1) {
      throw new IllegalArgumentException("retry is 1-based: " + retry);
    }
    double ms = initialBackoff.toMillis() * Math.pow(multiplier, retry - 1);
    return Duration.ofMillis((long) Math.min(ms, maxBackoff.toMillis()));
  }
}
