package dev.kairos.core.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteWindowTest {

  private final ExecutorService answers =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "write-window-test-answers"));

  @AfterEach
  void stop() throws InterruptedException {
    answers.shutdownNow();
    assertThat(answers.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void neverMoreThanTheWindowUnansweredAndAnswersComeBackInOrder() {
    AtomicInteger unanswered = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Integer> items = IntStream.range(0, 500).boxed().toList();

    List<CompletableFuture<Integer>> writes =
        WriteWindow.start(
            items,
            16,
            item -> {
              most.accumulateAndGet(unanswered.incrementAndGet(), Math::max);
              return CompletableFuture.supplyAsync(
                  () -> {
                    unanswered.decrementAndGet();
                    return item * 2;
                  },
                  answers);
            },
            failure -> true);

    assertThat(writes.stream().map(CompletableFuture::join).toList())
        .isEqualTo(items.stream().map(i -> i * 2).toList());
    assertThat(most.get()).isBetween(1, 16);
  }

  @Test
  void aFatalFailureStopsTheRestWithTheSameCause() {
    IllegalStateException down = new IllegalStateException("redis down");
    List<Integer> attempted = new ArrayList<>();

    List<CompletableFuture<Integer>> writes =
        WriteWindow.start(
            IntStream.range(0, 10).boxed().toList(),
            2,
            item -> {
              attempted.add(item);
              return item == 1
                  ? CompletableFuture.failedFuture(down)
                  : CompletableFuture.completedFuture(item);
            },
            failure -> failure == down);

    // Item 3 waits for item 1, finds it failed fatally, and is never started.
    assertThat(attempted).containsExactly(0, 1, 2);
    assertThat(writes).hasSize(10);
    assertThat(writes.get(0).join()).isZero();
    assertThat(writes.get(2).join()).isEqualTo(2);
    for (int i = 3; i < 10; i++) {
      CompletableFuture<Integer> skipped = writes.get(i);
      assertThatThrownBy(skipped::join).isInstanceOf(CompletionException.class).hasCause(down);
    }
  }

  @Test
  void aFailureTheCallerExpectsDoesNotStopTheRest() {
    IllegalArgumentException exists = new IllegalArgumentException("already exists");

    List<CompletableFuture<Integer>> writes =
        WriteWindow.start(
            IntStream.range(0, 6).boxed().toList(),
            1,
            item ->
                item % 2 == 0
                    ? CompletableFuture.failedFuture(exists)
                    : CompletableFuture.completedFuture(item),
            failure -> !(failure instanceof IllegalArgumentException));

    assertThat(writes.get(5).join()).isEqualTo(5);
    assertThat(writes.get(4)).isCompletedExceptionally();
  }

  @Test
  void aWindowBelowOneIsRefused() {
    assertThatThrownBy(
            () -> WriteWindow.start(List.of(1), 0, CompletableFuture::completedFuture, f -> true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("window");
  }
}
