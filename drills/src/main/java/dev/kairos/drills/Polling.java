package dev.kairos.drills;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Waits for a condition with a deadline and a message, never for a fixed time. An exception thrown
 * by the condition counts as "not yet" (a node that is starting or paused does not answer), except
 * {@link ProcessExitedException}, which ends the wait at once.
 */
public final class Polling {

  private static final long STEP_MILLIS = 100;

  private Polling() {}

  public static void until(Duration timeout, String what, Supplier<Boolean> condition) {
    value(
        timeout,
        what,
        () -> Boolean.TRUE.equals(condition.get()) ? Optional.of(true) : Optional.empty());
  }

  /** Polls until {@code probe} returns a value, and returns it. */
  public static <T> T value(Duration timeout, String what, Supplier<Optional<T>> probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (true) {
      try {
        Optional<T> value = probe.get();
        if (value.isPresent()) {
          return value.get();
        }
      } catch (ProcessExitedException e) {
        throw e;
      } catch (RuntimeException e) {
        last = e;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "timed out after " + timeout + " waiting for " + what, last);
      }
      try {
        Thread.sleep(STEP_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
  }
}
