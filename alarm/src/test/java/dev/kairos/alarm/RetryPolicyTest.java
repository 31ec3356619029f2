package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  @Test
  void backoffDoublesUpToItsCap() {
    RetryPolicy policy = new RetryPolicy(6, Duration.ofSeconds(1), 2, Duration.ofSeconds(10));

    assertThat(policy.backoffBefore(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.backoffBefore(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(policy.backoffBefore(3)).isEqualTo(Duration.ofSeconds(4));
    assertThat(policy.backoffBefore(4)).isEqualTo(Duration.ofSeconds(8));
    assertThat(policy.backoffBefore(5)).isEqualTo(Duration.ofSeconds(10));
    assertThat(policy.backoffBefore(6)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aHugeRetryNumberStaysAtTheCap() {
    RetryPolicy policy = new RetryPolicy(20, Duration.ofMillis(500), 3, Duration.ofMinutes(1));

    assertThat(policy.backoffBefore(20)).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void retriesAreBounded() {
    RetryPolicy policy = new RetryPolicy(2, Duration.ofSeconds(1), 2, Duration.ofSeconds(10));

    assertThat(policy.allowsRetryAfter(1)).isTrue();
    assertThat(policy.allowsRetryAfter(2)).isTrue();
    assertThat(policy.allowsRetryAfter(3)).as("two retries = three attempts").isFalse();
    assertThat(RetryPolicy.NONE.allowsRetryAfter(1)).isFalse();
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new RetryPolicy(-1, Duration.ZERO, 2, Duration.ZERO))
        .hasMessageContaining("maxRetries");
    assertThatThrownBy(() -> new RetryPolicy(21, Duration.ZERO, 2, Duration.ZERO))
        .hasMessageContaining("maxRetries");
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofSeconds(2), 2, Duration.ofSeconds(1)))
        .hasMessageContaining("maxBackoff");
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ZERO, 0.5, Duration.ZERO))
        .hasMessageContaining("multiplier");
    assertThatThrownBy(
            () ->
                new RetryPolicy(1, Duration.ofSeconds(1), 2, Duration.ofSeconds(1))
                    .backoffBefore(0))
        .hasMessageContaining("1-based");
  }
}
