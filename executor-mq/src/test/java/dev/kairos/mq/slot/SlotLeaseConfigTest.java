package dev.kairos.mq.slot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlotLeaseConfigTest {

  private final SlotLeaseConfig defaults = SlotLeaseConfig.of("app", "i-1", "host", List.of("h"));

  @Test
  void defaultsMatchTheDesignTimings() {
    assertThat(defaults.ttl()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.renewInterval()).isEqualTo(Duration.ofSeconds(3));
    assertThat(defaults.trustedWindow()).isLessThan(defaults.ttl());
  }

  @Test
  void renewalThatCannotFitTwiceInTheTrustedWindowIsRejected() {
    assertThatThrownBy(
            () ->
                defaults.withTiming(
                    Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("renewInterval");
  }

  @Test
  void anInstanceWithoutHandlersOrSlotsIsRejected() {
    assertThatThrownBy(() -> SlotLeaseConfig.of("app", "i-1", "h", List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withSlotCount(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SlotLeaseConfig.of(" ", "i-1", "h", List.of("h")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void zeroMarginIsRejected() {
    assertThatThrownBy(
            () -> defaults.withTiming(Duration.ofSeconds(10), Duration.ofSeconds(3), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
