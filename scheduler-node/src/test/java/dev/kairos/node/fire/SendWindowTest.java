package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SendWindowTest {

  private final AtomicLong nanos = new AtomicLong();
  private final List<String> ran = new ArrayList<>();

  private Runnable send(String id) {
    return () -> ran.add(id);
  }

  @Test
  void sendsRunAtOnceUntilTheWindowIsFullThenWaitInOrder() {
    SendWindow window = new SendWindow(2, 10, 1_000, nanos::get);
    assertThat(window.submit(send("a"))).isTrue();
    assertThat(window.submit(send("b"))).isTrue();
    assertThat(window.submit(send("c"))).isTrue();
    assertThat(window.submit(send("d"))).isTrue();
    assertThat(ran).containsExactly("a", "b");
    assertThat(window.inUse()).isEqualTo(2);
    assertThat(window.waiting()).isEqualTo(2);

    Runnable next = window.release(); // "a" answered: its place goes to "c"
    next.run();
    assertThat(ran).containsExactly("a", "b", "c");
    assertThat(window.inUse()).isEqualTo(2);
    window.release().run();
    assertThat(ran).containsExactly("a", "b", "c", "d");
    assertThat(window.release()).isNull();
    assertThat(window.release()).isNull();
    assertThat(window.inUse()).isZero();
  }

  @Test
  void aFullQueueRefusesAndRunsNothing() {
    SendWindow window = new SendWindow(1, 1, 1_000, nanos::get);
    window.submit(send("a"));
    assertThat(window.submit(send("b"))).isTrue();
    assertThat(window.submit(send("c"))).as("queue of 1 is full").isFalse();
    assertThat(ran).containsExactly("a");
    assertThat(window.waiting()).isEqualTo(1);
  }

  @Test
  void sendsThatWaitedLongerThanTheResendDelayAreLeftToTheSweeper() {
    SendWindow window = new SendWindow(1, 10, 1_000, nanos::get);
    window.submit(send("a"));
    window.submit(send("old"));
    nanos.set(600);
    window.submit(send("young"));
    nanos.set(1_200); // "old" waited 1,200 ns > 1,000; "young" 600 ns
    window.release().run();
    assertThat(ran).containsExactly("a", "young");
    assertThat(window.expired()).isEqualTo(1);
    assertThat(window.release()).isNull();
    assertThat(window.inUse()).isZero();
  }

  @Test
  void rejectsANonPositiveWindow() {
    assertThatThrownBy(() -> new SendWindow(0, 1, 1, nanos::get))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
