package dev.kairos.coordinator.scan;

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
}
