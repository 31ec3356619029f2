package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LifecycleTest {

  @Test
  void startTwiceThrowsCloseTwiceIsANoOpAndClosedRejectsOperations() {
    Lifecycle lifecycle = new Lifecycle("thing");
    lifecycle.markStarted();

    assertThatThrownBy(lifecycle::markStarted)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("thing cannot be started: it is STARTED");
    assertThat(lifecycle.markClosed()).isTrue();
    assertThat(lifecycle.markClosed()).isFalse();
    assertThatThrownBy(lifecycle::requireStarted).hasMessage("thing is CLOSED");
  }
}
