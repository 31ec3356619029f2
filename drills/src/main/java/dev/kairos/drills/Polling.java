package dev.kairos.drills;

import dev.kairos.devinfra.Poll;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The drills' waits: {@link Poll} with the drills' step (100 ms) and one rule of their own: a
 * {@link ProcessExitedException} thrown by the probe (a node or executor process died) ends the
 * wait at once instead of counting as "not yet". Every other exception counts as "not yet" (a node
 * that is starting or paused does not answer); a timeout names what was awaited and the last value.
 */
public final class Polling {

  private static final Duration STEP = Duration.ofMillis(100);

  private Polling() {}

  /** Polls until {@code condition} holds. */
  public static void until(Duration timeout, String what, Supplier<Boolean> condition) {
    until(timeout, what, condition, Boolean.TRUE::equals, "true");
  }

  /** Polls until {@code probe} returns a value, and returns it. */
  public static <T> T value(Duration timeout, String what, Supplier<Optional<T>> probe) {
    return until(timeout, what, probe, Optional::isPresent, "a value").orElseThrow();
  }

  /**
   * Polls {@code probe} until its value satisfies {@code done} ({@code expected} says how, for the
   * failure message), and returns that value; a timeout reports the last value.
   */
  public static <T> T until(
      Duration timeout, String what, Supplier<T> probe, Predicate<T> done, String expected) {
    return Poll.until(
        timeout, STEP, what, probe, done, expected, e -> e instanceof ProcessExitedException);
  }
}
