package dev.kairos.coordinator.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScanConfigTest {

  @Test
  void scanIntervalMustBeShorterThanPreRead() {
    assertThatThrownBy(() -> ScanConfig.builder().interval(Duration.ofSeconds(5)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pre-read");
  }

  @Test
  void batchSizeMustBePositive() {
    assertThatThrownBy(() -> ScanConfig.builder().batchSize(0).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void spreadMustLieBetweenZeroAndTheInterval() {
    assertThatThrownBy(() -> ScanConfig.builder().spread(Duration.ofMillis(1_001)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spread");
    assertThatThrownBy(() -> ScanConfig.builder().spread(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spread");
    assertThat(ScanConfig.builder().spread(Duration.ofSeconds(1)).build().spread())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(ScanConfig.defaults().spread()).isZero();
  }

  @Test
  void defaultsAreTheConstantsAndToBuilderKeepsEveryParameter() {
    ScanConfig defaults = ScanConfig.defaults();
    assertThat(defaults)
        .isEqualTo(
            new ScanConfig(
                ScanConfig.DEFAULT_PRE_READ,
                ScanConfig.DEFAULT_INTERVAL,
                ScanConfig.DEFAULT_BATCH_SIZE,
                ScanConfig.DEFAULT_MAX_BATCHES_PER_SHARD,
                ScanConfig.DEFAULT_DEDUP_WINDOW,
                ScanConfig.DEFAULT_EVENTS_MAX_LEN,
                ScanConfig.DEFAULT_REDIS_TIMEOUT,
                ScanConfig.DEFAULT_MISFIRE_GRACE,
                ScanConfig.DEFAULT_SPREAD));
    ScanConfig tuned =
        new ScanConfig(
            Duration.ofSeconds(9),
            Duration.ofSeconds(2),
            7,
            3,
            Duration.ofMinutes(20),
            1_234,
            Duration.ofSeconds(4),
            Duration.ofSeconds(30),
            Duration.ofMillis(500));
    assertThat(tuned.toBuilder().build()).isEqualTo(tuned);
    ScanConfig rebatched = tuned.toBuilder().batchSize(8).build();
    assertThat(rebatched.batchSize()).isEqualTo(8);
    assertThat(rebatched.toBuilder().batchSize(7).build()).isEqualTo(tuned);
  }
}
