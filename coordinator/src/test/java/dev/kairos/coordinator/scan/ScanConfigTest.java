package dev.kairos.coordinator.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScanConfigTest {

  @Test
  void scanIntervalMustBeShorterThanPreRead() {
    assertThatThrownBy(() -> ScanConfig.defaults().withInterval(Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pre-read");
  }

  @Test
  void batchSizeMustBePositive() {
    assertThatThrownBy(() -> ScanConfig.defaults().withBatchSize(0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void spreadMustLieBetweenZeroAndTheInterval() {
    assertThatThrownBy(() -> ScanConfig.defaults().withSpread(Duration.ofMillis(1_001)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spread");
    assertThatThrownBy(() -> ScanConfig.defaults().withSpread(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spread");
    assertThat(ScanConfig.defaults().withSpread(Duration.ofSeconds(1)).spread())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(ScanConfig.defaults().spread()).isZero();
  }
}
