package dev.kairos.drills;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;

/**
 * Waits for a condition with a deadline and a message, never for a fixed time, on Awaitility: a
 * timeout fails with {@link org.awaitility.core.ConditionTimeoutException} naming what was awaited
 * and the last value seen, with the last exception the probe threw as its cause. An exception
 * thrown by the probe counts as "not yet" (a node that is starting or paused does not answer),
 * except {@link ProcessExitedException}, which ends the wait at once.
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
    return factory(timeout, what).until(probe::get, matcher(done, expected));
  }

  private static ConditionFactory factory(Duration timeout, String what) {
    return Awaitility.await(what)
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(STEP)
        // The probe runs on the caller's thread: no thread is left behind on a timeout, and a
        // ProcessExitedException reaches the caller as it was thrown.
        .pollInSameThread()
        .ignoreExceptionsMatching(e -> !(e instanceof ProcessExitedException));
  }

  private static <T> Matcher<T> matcher(Predicate<T> done, String expected) {
    return new BaseMatcher<>() {
      @Override
      @SuppressWarnings("unchecked")
      public boolean matches(Object actual) {
        return done.test((T) actual);
      }

      @Override
      public void describeTo(Description description) {
        description.appendText(expected);
      }
    };
  }
}
