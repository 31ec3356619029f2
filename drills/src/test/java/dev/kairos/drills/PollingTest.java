package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.cluster.process.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PollingTest {

  @Test
  void returnsTheFirstValueThatSatisfiesTheCondition() {
    AtomicInteger calls = new AtomicInteger();
    int value =
        Polling.until(
            Duration.ofSeconds(5), "three calls", calls::incrementAndGet, n -> n >= 3, ">= 3");
    assertThat(value).isEqualTo(3);
    assertThat(Polling.value(Duration.ofSeconds(5), "a value", () -> Optional.of("x")))
        .isEqualTo("x");
  }

  @Test
  void aTimeoutNamesWhatWasAwaitedAndTheLastValue() {
    assertThatThrownBy(
            () ->
                Polling.until(
                    Duration.ofMillis(300), "the answer", () -> 41, n -> n == 42, "the number 42"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the answer")
        .hasMessageContaining("the number 42")
        .hasMessageContaining("41");
  }

  @Test
  void exceptionsCountAsNotYetAndTheLastIsTheCause() {
    AtomicInteger calls = new AtomicInteger();
    assertThat(
            Polling.<Integer>until(
                Duration.ofSeconds(5),
                "a node that answers on the third call",
                () -> {
                  if (calls.incrementAndGet() < 3) {
                    throw new IllegalStateException("connection refused");
                  }
                  return calls.get();
                },
                n -> true,
                "an answer"))
        .isEqualTo(3);
    assertThatThrownBy(
            () ->
                Polling.until(
                    Duration.ofMillis(300),
                    "a node that never answers",
                    () -> {
                      throw new IllegalStateException("connection refused");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a node that never answers")
        .hasRootCauseMessage("connection refused");
  }

  @Test
  void aProcessThatExitedEndsTheWaitAtOnce() {
    ChildJvm gone = new ChildJvm("gone", "NoSuchMain", List.of(), List.of(), Path.of("gone.log"));
    long began = System.nanoTime();
    assertThatThrownBy(
            () ->
                Polling.until(
                    Duration.ofSeconds(30),
                    "a process that is gone",
                    () -> {
                      throw new ProcessExitedException(gone);
                    }))
        .isInstanceOf(ProcessExitedException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
  }
}
