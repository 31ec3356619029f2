package dev.kairos.core.redis;

import static dev.kairos.core.redis.ReplicaWait.Ack.ACKNOWLEDGED;
import static dev.kairos.core.redis.ReplicaWait.Ack.FAILED;
import static dev.kairos.core.redis.ReplicaWait.Ack.UNACKNOWLEDGED;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The policy around WAIT: off sends nothing, a shortfall proceeds and backs that master off, a
 * failed WAIT is told apart.
 */
class ReplicaWaitTest {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final List<String> sent = new ArrayList<>();
  private long answer = 1;
  private RuntimeException failure;

  private final ReplicaWait.Acks acks =
      new ReplicaWait.Acks() {
        @Override
        public String masterOf(String key) {
          return key.startsWith("a") ? "m1:1" : "m2:2";
        }

        @Override
        public CompletionStage<Long> await(String master, int replicas, long timeoutMs) {
          sent.add(master + " " + replicas + " " + timeoutMs);
          return failure != null
              ? CompletableFuture.failedFuture(failure)
              : CompletableFuture.completedFuture(answer);
        }
      };

  private ReplicaWait wait(int replicas) {
    return new ReplicaWait(
        new ReplicaWait.Policy(replicas, Duration.ofMillis(100)), acks, nanos::get);
  }

  private static ReplicaWait.Ack now(CompletionStage<ReplicaWait.Ack> stage) {
    return stage.toCompletableFuture().join();
  }

  @Test
  void offSendsNoWait() {
    ReplicaWait off = wait(0);
    assertThat(now(off.afterWrite("a"))).isEqualTo(ACKNOWLEDGED);
    assertThat(sent).isEmpty();
    assertThat(off.waits()).isZero();
  }

  @Test
  void acknowledgedWritesCountNothing() {
    ReplicaWait w = wait(1);
    assertThat(now(w.afterWrite("a"))).isEqualTo(ACKNOWLEDGED);
    assertThat(sent).containsExactly("m1:1 1 100");
    assertThat(w.unacknowledged()).isZero();
  }

  @Test
  void aShortfallProceedsAndBacksOnlyThatMasterOff() {
    ReplicaWait w = wait(1);
    answer = 0;
    assertThat(now(w.afterWrite("a"))).isEqualTo(UNACKNOWLEDGED);
    answer = 1;
    // In the back-off: no WAIT to m1 (it would hold the connection for the timeout), counted.
    assertThat(now(w.afterWrite("a"))).isEqualTo(UNACKNOWLEDGED);
    assertThat(now(w.afterWrite("b"))).isEqualTo(ACKNOWLEDGED);
    assertThat(sent).containsExactly("m1:1 1 100", "m2:2 1 100");
    assertThat(w.unacknowledged()).isEqualTo(2);

    nanos.addAndGet(w.backoff().toNanos());
    assertThat(now(w.afterWrite("a"))).isEqualTo(ACKNOWLEDGED);
    assertThat(sent).hasSize(3);
  }

  @Test
  void aFailedWaitIsAShortfallNeverAnError() {
    ReplicaWait w = wait(1);
    failure = new IllegalStateException("connection reset");
    assertThat(now(w.afterWrite("a"))).isEqualTo(FAILED);
    assertThat(w.unacknowledged()).isEqualTo(1);
    assertThat(w.failed()).isEqualTo(1);
  }

  @Test
  void theBackOffIsAtLeastASecondAndTenTimeouts() {
    assertThat(wait(1).backoff()).isEqualTo(Duration.ofSeconds(1));
    ReplicaWait slow =
        new ReplicaWait(new ReplicaWait.Policy(1, Duration.ofMillis(500)), acks, nanos::get);
    assertThat(slow.backoff()).isEqualTo(Duration.ofSeconds(5));
  }
}
