package dev.kairos.core.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class CoalescerTest {

  /** Every call, answered by the test: its key, its requests and the stage to complete. */
  private record Call(String key, List<Integer> requests, CompletableFuture<List<String>> stage) {

    void answer() {
      stage.complete(requests.stream().map(r -> key + r).toList());
    }
  }

  private final List<Call> calls = new ArrayList<>();

  private Coalescer<String, Integer, String> coalescer(int maxBatch, int maxInFlight) {
    return new Coalescer<>(
        (key, requests) -> {
          Call call = new Call(key, List.copyOf(requests), new CompletableFuture<>());
          calls.add(call);
          return call.stage;
        },
        maxBatch,
        maxInFlight);
  }

  @Test
  void aRequestThatFindsRoomGoesAtOnceAlone() throws Exception {
    Coalescer<String, Integer, String> c = coalescer(10, 1);
    CompletableFuture<String> answer = c.submit("s1", 7);
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0).requests()).containsExactly(7);
    calls.get(0).answer();
    assertThat(answer.get()).isEqualTo("s17");
  }

  @Test
  void requestsThatArriveWhileCallsAreOutGoTogetherWhenOneAnswers() throws Exception {
    Coalescer<String, Integer, String> c = coalescer(3, 1);
    CompletableFuture<String> first = c.submit("s", 1);
    List<CompletableFuture<String>> queued = new ArrayList<>();
    for (int i = 2; i <= 6; i++) {
      queued.add(c.submit("s", i));
    }
    assertThat(calls).hasSize(1);
    assertThat(c.queued()).isEqualTo(5);

    calls.get(0).answer();
    assertThat(first.get()).isEqualTo("s1");
    assertThat(calls).hasSize(2);
    assertThat(calls.get(1).requests()).containsExactly(2, 3, 4); // capped at maxBatch
    calls.get(1).answer();
    assertThat(calls.get(2).requests()).containsExactly(5, 6);
    calls.get(2).answer();
    assertThat(queued.stream().map(CompletableFuture::join))
        .containsExactly("s2", "s3", "s4", "s5", "s6");
    assertThat(c.queued()).isZero();
  }

  @Test
  void upToMaxInFlightCallsOfOneKeyGoOutAtOnceAndKeysAreIndependent() {
    Coalescer<String, Integer, String> c = coalescer(10, 2);
    c.submit("a", 1);
    c.submit("a", 2);
    c.submit("a", 3);
    c.submit("b", 4);
    assertThat(calls).extracting(Call::key).containsExactly("a", "a", "b");
    assertThat(c.queued()).isEqualTo(1);
  }

  @Test
  void aFailedCallFailsItsOwnRequestsOnlyAndTheLaneGoesOn() throws Exception {
    Coalescer<String, Integer, String> c = coalescer(10, 1);
    CompletableFuture<String> failed = c.submit("s", 1);
    CompletableFuture<String> later = c.submit("s", 2);
    calls.get(0).stage.completeExceptionally(new IllegalStateException("redis down"));
    assertThatThrownBy(failed::get)
        .isInstanceOf(ExecutionException.class)
        .hasRootCauseMessage("redis down");
    calls.get(1).answer();
    assertThat(later.get()).isEqualTo("s2");
  }

  @Test
  void aCallThatThrowsOrAnswersTheWrongCountFailsItsRequests() {
    Coalescer<String, Integer, String> throwing =
        new Coalescer<>(
            (k, r) -> {
              throw new IllegalArgumentException("bad");
            },
            10,
            1);
    assertThat(throwing.submit("s", 1)).isCompletedExceptionally();
    assertThat(throwing.submit("s", 2)).isCompletedExceptionally(); // the lane was released

    Coalescer<String, Integer, String> short_ =
        new Coalescer<>((k, r) -> CompletableFuture.completedFuture(List.of()), 10, 1);
    assertThatThrownBy(() -> short_.submit("s", 1).join()).hasMessageContaining("got 0 answers");
  }

  @Test
  void refusesNonPositiveLimits() {
    assertThatThrownBy(() -> coalescer(0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> coalescer(1, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
