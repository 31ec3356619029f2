package dev.kairos.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.devinfra.Poll;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PeriodicTaskTest {

  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final Duration LONG = Duration.ofHours(1);

  private final AtomicInteger passes = new AtomicInteger();
  private final List<Exception> failures = new CopyOnWriteArrayList<>();
  private PeriodicTask task;

  @AfterEach
  void closeTask() {
    if (task != null) {
      task.close();
    }
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(WAIT, Duration.ofMillis(5), what, condition::getAsBoolean);
  }

  private static boolean threadAlive(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals(name) && t.isAlive());
  }

  @Test
  void passesRunEveryIntervalOnANamedDaemonThreadUntilClosed() {
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    task =
        new PeriodicTask(
            "test loop",
            "kairos-test-every",
            Duration.ofMillis(5),
            () -> {
              ranOn.set(Thread.currentThread());
              passes.incrementAndGet();
            },
            failures::add);
    task.start();

    await("three passes", () -> passes.get() >= 3);
    assertThat(ranOn.get().getName()).isEqualTo("kairos-test-every");
    assertThat(ranOn.get().isDaemon()).isTrue();
    assertThat(task.isRunning()).isTrue();

    task.close();
    assertThat(task.isRunning()).isFalse();
    assertThat(ranOn.get().isAlive()).as("no thread left after close").isFalse();
    assertThat(threadAlive("kairos-test-every")).isFalse();
    assertThat(failures).isEmpty();
  }

  @Test
  void closeIsPromptEvenWithALongInterval() {
    task = new PeriodicTask("test loop", "kairos-test-long", LONG, passes::incrementAndGet);
    task.start();
    await("the first pass, at start", () -> passes.get() == 1);

    long began = System.nanoTime();
    assertThat(task.stop()).isTrue();
    Duration took = Duration.ofNanos(System.nanoTime() - began);

    assertThat(took).isLessThan(Duration.ofSeconds(1));
    assertThat(threadAlive("kairos-test-long")).isFalse();
    assertThat(passes.get()).isEqualTo(1);
  }

  @Test
  void aThrowingPassIsHandedToTheHandlerAndTheLoopGoesOn() {
    task =
        new PeriodicTask(
            "test loop",
            "kairos-test-throwing",
            Duration.ofMillis(1),
            () -> {
              if (passes.incrementAndGet() <= 2) {
                throw new IllegalStateException("pass " + passes.get() + " failed");
              }
            },
            failures::add);
    task.start();

    await("passes after two failures", () -> passes.get() >= 4);
    assertThat(failures)
        .extracting(Throwable::getMessage)
        .containsExactly("pass 1 failed", "pass 2 failed");
    assertThat(task.isRunning()).isTrue();
  }

  @Test
  void aThrowingFailureHandlerDoesNotStopTheLoopEither() {
    task =
        new PeriodicTask(
            "test loop",
            "kairos-test-bad-handler",
            Duration.ofMillis(1),
            () -> {
              passes.incrementAndGet();
              throw new IllegalStateException("always");
            },
            e -> {
              throw new IllegalArgumentException("handler");
            });
    task.start();

    await("passes despite the handler", () -> passes.get() >= 3);
    assertThat(task.isRunning()).isTrue();
  }

  @Test
  void theIntervalIsAskedAfterEachPass() {
    AtomicInteger asked = new AtomicInteger();
    task =
        new PeriodicTask(
            "test loop",
            "kairos-test-supplier",
            () -> asked.incrementAndGet() < 3 ? Duration.ofMillis(1) : LONG,
            passes::incrementAndGet,
            failures::add);
    task.start();

    await("three passes, the third followed by a long wait", () -> asked.get() == 3);
    assertThat(passes.get()).isEqualTo(3);
    task.close();
    assertThat(threadAlive("kairos-test-supplier")).isFalse();
  }

  @Test
  void aPassCutShortByCloseIsNotAFailure() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    task =
        new PeriodicTask(
            "test loop",
            "kairos-test-blocked",
            LONG,
            () -> {
              entered.countDown();
              try {
                never.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
              }
            },
            failures::add);
    task.start();
    await("the pass to block", () -> entered.getCount() == 0);

    task.close();

    assertThat(threadAlive("kairos-test-blocked")).isFalse();
    assertThat(failures).isEmpty();
  }

  @Test
  void aPassMayCloseItsOwnTask() {
    AtomicReference<PeriodicTask> self = new AtomicReference<>();
    task =
        new PeriodicTask(
            "test loop",
            "kairos-test-self-close",
            Duration.ofMillis(1),
            () -> {
              passes.incrementAndGet();
              self.get().close();
            },
            failures::add);
    self.set(task);
    task.start();

    await("the thread to end after its pass closed the task", () -> !task.isRunning());
    await("no thread left", () -> !threadAlive("kairos-test-self-close"));
    assertThat(passes.get()).isEqualTo(1);
  }

  @Test
  void startsOnceAndClosesAnyNumberOfTimes() {
    task = new PeriodicTask("test loop", "kairos-test-lifecycle", LONG, passes::incrementAndGet);
    assertThat(task.stop()).as("never started: nothing to stop").isFalse();
    assertThatThrownBy(task::start).hasMessageContaining("test loop cannot start");

    PeriodicTask other =
        new PeriodicTask("other loop", "kairos-test-lifecycle-2", LONG, passes::incrementAndGet);
    other.start();
    assertThatThrownBy(other::start).hasMessageContaining("other loop cannot start");
    assertThat(other.stop()).isTrue();
    assertThat(other.stop()).isFalse();
    other.close();
    assertThat(threadAlive("kairos-test-lifecycle-2")).isFalse();
  }

  @Test
  void anIntervalMustBePositive() {
    assertThatThrownBy(
            () -> new PeriodicTask("test loop", "kairos-test-zero", Duration.ZERO, () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("interval");
  }
}
