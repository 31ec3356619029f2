package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PollTest {

  private static final Duration STEP = Duration.ofMillis(10);

  @Test
  void returnsTheFirstValueThatSatisfiesTheCondition() {
    AtomicInteger calls = new AtomicInteger();

    int value =
        Poll.until(
            Duration.ofSeconds(5),
            STEP,
            "three calls",
            calls::incrementAndGet,
            n -> n >= 3,
            ">= 3");

    assertThat(value).isEqualTo(3);
  }

  @Test
  void aTimeoutNamesWhatWasAwaitedTheExpectationAndTheLastValue() {
    assertThatThrownBy(
            () ->
                Poll.until(
                    Duration.ofMillis(300), STEP, "the answer", () -> 41, n -> n == 42, "42"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("waiting for the answer")
        .hasMessageContaining("42")
        .hasMessageContaining("41");
  }

  @Test
  void exceptionsCountAsNotYetAndTheLastIsTheCauseOfATimeout() {
    AtomicInteger calls = new AtomicInteger();
    Poll.until(
        Duration.ofSeconds(5),
        "a server that answers on the third call",
        () -> {
          if (calls.incrementAndGet() < 3) {
            throw new IllegalStateException("connection refused");
          }
          return true;
        });
    assertThat(calls).hasValue(3);

    assertThatThrownBy(
            () ->
                Poll.until(
                    Duration.ofMillis(300),
                    "a server that never answers",
                    () -> {
                      throw new IllegalStateException("connection refused");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a server that never answers")
        .hasRootCauseMessage("connection refused");
  }

  @Test
  void anExceptionTheCallerStopsOnEndsTheWaitAtOnceAsItWasThrown() {
    long began = System.nanoTime();

    assertThatThrownBy(
            () ->
                Poll.until(
                    Duration.ofSeconds(30),
                    STEP,
                    "a process that exited",
                    () -> {
                      throw new UnsupportedOperationException("exited");
                    },
                    v -> true,
                    "an answer",
                    e -> e instanceof UnsupportedOperationException))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void holdsChecksForTheWholePeriod() {
    AtomicInteger checks = new AtomicInteger();
    long began = System.nanoTime();

    Poll.holds(Duration.ofMillis(300), STEP, "always true", checks::incrementAndGet);

    assertThat(Duration.ofNanos(System.nanoTime() - began))
        .isGreaterThanOrEqualTo(Duration.ofMillis(300));
    assertThat(checks.get()).isGreaterThan(5);
  }

  @Test
  void holdsFailsAtTheFirstFailureWithIt() {
    AtomicInteger checks = new AtomicInteger();
    long began = System.nanoTime();

    assertThatThrownBy(
            () ->
                Poll.holds(
                    Duration.ofSeconds(30),
                    STEP,
                    "the count stays below 3",
                    () -> assertThat(checks.incrementAndGet()).isLessThan(3)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the count stays below 3 stopped holding")
        .hasMessageContaining("3");
    assertThat(checks.get()).isEqualTo(3);
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(10));
  }
}
