package dev.kairos.devinfra;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waits for a condition with a deadline and a message, never for a fixed time. Public so that the
 * other modules' integration tests (which all use this kit) poll the same way.
 */
public final class Poll {

  private static final long DEFAULT_STEP_MILLIS = 50;

  private Poll() {}

  /**
   * Polls until {@code condition} returns true; exceptions it throws count as "not yet". On timeout
   * throws {@link IllegalStateException} with {@code what} and the last exception as cause.
   */
  public static void until(Duration timeout, String what, Supplier<Boolean> condition) {
    until(timeout, Duration.ofMillis(DEFAULT_STEP_MILLIS), what, condition);
  }

  /** As {@link #until(Duration, String, Supplier)}, checking every {@code step}. */
  public static void until(
      Duration timeout, Duration step, String what, Supplier<Boolean> condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (true) {
      try {
        if (Boolean.TRUE.equals(condition.get())) {
          return;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "timed out after " + timeout + " waiting for " + what, last);
      }
      try {
        Thread.sleep(step.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
  }
}
