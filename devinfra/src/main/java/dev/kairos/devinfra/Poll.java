package dev.kairos.devinfra;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.awaitility.core.ThrowingRunnable;
import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;
import org.hamcrest.Matcher;

/**
 * Waits for a condition with a deadline and a message, never for a fixed time: the one poll helper
 * of every module's tests (and of the embedded components' start-ups), on Awaitility. The probe
 * runs on the caller's thread; an exception it throws counts as "not yet" unless {@code stopOn}
 * says it ends the wait. A timeout throws {@link IllegalStateException} naming what was awaited,
 * the last value seen and how long it waited, with the last exception the probe threw as its cause.
 */
public final class Poll {

  /** How often a probe runs unless the caller says otherwise. */
  public static final Duration DEFAULT_STEP = Duration.ofMillis(50);

  private Poll() {}

  /** Polls until {@code condition} returns true. */
  public static void until(Duration timeout, String what, Supplier<Boolean> condition) {
    until(timeout, DEFAULT_STEP, what, condition);
  }

  /** As {@link #until(Duration, String, Supplier)}, checking every {@code step}. */
  public static void until(
      Duration timeout, Duration step, String what, Supplier<Boolean> condition) {
    until(timeout, step, what, condition, Boolean.TRUE::equals, "true");
  }

  /**
   * Polls {@code probe} every {@code step} until its value satisfies {@code done} ({@code expected}
   * says how, for the failure message), and returns that value.
   */
  public static <T> T until(
      Duration timeout,
      Duration step,
      String what,
      Supplier<T> probe,
      Predicate<T> done,
      String expected) {
    return until(timeout, step, what, probe, done, expected, e -> false);
  }

  /**
   * As above; an exception the probe throws that {@code stopOn} matches ends the wait at once and
   * reaches the caller as it was thrown (a process that exited will not answer later).
   */
  public static <T> T until(
      Duration timeout,
      Duration step,
      String what,
      Supplier<T> probe,
      Predicate<T> done,
      String expected,
      Predicate<Throwable> stopOn) {
    try {
      return Awaitility.await(what)
          .atMost(timeout)
          .pollDelay(Duration.ZERO)
          .pollInterval(step)
          // No thread is left behind on a timeout, and a stopping exception keeps its type.
          .pollInSameThread()
          .ignoreExceptionsMatching(e -> !stopOn.test(e))
          .until(probe::get, matcher(done, expected));
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException(
          "timed out after " + timeout + " waiting for " + what + ": " + e.getMessage(),
          e.getCause());
    }
  }

  /**
   * Checks {@code assertion} every {@code step} for {@code period}, and fails at its first failure
   * with that failure: a state that must last (a leader that stays, a trigger that keeps waiting),
   * where {@link #until} waits for one that must come.
   */
  public static void holds(
      Duration period, Duration step, String what, ThrowingRunnable assertion) {
    AtomicReference<Throwable> broken = new AtomicReference<>();
    try {
      Awaitility.await(what)
          .atMost(period.plus(step).plus(Duration.ofSeconds(1)))
          .during(period)
          .pollDelay(Duration.ZERO)
          .pollInterval(step)
          .pollInSameThread()
          .failFast(
              what + " stopped holding",
              () -> {
                try {
                  assertion.run();
                  return false;
                } catch (Throwable t) {
                  broken.set(t);
                  return true;
                }
              })
          .until(() -> true);
    } catch (TerminalFailureException e) {
      Throwable cause = broken.get();
      throw new AssertionError(what + " stopped holding: " + cause.getMessage(), cause);
    }
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
