package dev.kairos.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RetryBackoffTest {

  @Test
  void fixedWaitsTheSameEveryAttempt() {
    RetryBackoff fixed = RetryBackoff.fixed(2_000);
    assertThat(fixed.delayBeforeAttempt(1, () -> 0.5)).isEqualTo(2_000);
    assertThat(fixed.delayBeforeAttempt(50, () -> 0.5)).isEqualTo(2_000);
  }

  @Test
  void exponentialDoublesUpToTheCapWithoutOverflow() {
    RetryBackoff exp = RetryBackoff.exponential(1_000, 10_000, 0);
    assertThat(exp.delayBeforeAttempt(1, () -> 0)).isEqualTo(1_000);
    assertThat(exp.delayBeforeAttempt(2, () -> 0)).isEqualTo(2_000);
    assertThat(exp.delayBeforeAttempt(4, () -> 0)).isEqualTo(8_000);
    assertThat(exp.delayBeforeAttempt(5, () -> 0)).isEqualTo(10_000);
    assertThat(exp.delayBeforeAttempt(100, () -> 0)).isEqualTo(10_000);
  }

  @Test
  void jitterShortensTheDelayByAtMostItsFraction() {
    RetryBackoff exp = RetryBackoff.exponential(1_000, 1_000, 0.2);
    assertThat(exp.delayBeforeAttempt(1, () -> 0.0)).isEqualTo(1_000);
    assertThat(exp.delayBeforeAttempt(1, () -> 0.999999)).isEqualTo(801);
  }

  @Test
  void encodesAndDecodes() {
    RetryBackoff b = RetryBackoff.exponential(500, 30_000, 0.1);
    assertThat(RetryBackoff.decode(b.encode())).isEqualTo(b);
    assertThatThrownBy(() -> RetryBackoff.decode("FIXED:1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RetryBackoff.decode("LINEAR:1:2:0"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
