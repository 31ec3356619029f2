package dev.kairos.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.coordinator.scan.ScanConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code kairos.cluster.*} translated once into the scan's settings. */
class ClusterPropertiesTest {

  @Test
  void unsetPropertiesGiveTheScanTheLibraryDefaultsSpreadOverAQuarterSecond() {
    assertThat(new ClusterProperties().toScanConfig(ScanConfig.DEFAULT_REDIS_TIMEOUT))
        .isEqualTo(ScanConfig.builder().spread(ClusterProperties.DEFAULT_SCAN_SPREAD).build());
  }

  @Test
  void aSpreadLongerThanTheScanIntervalNamesBothProperties() {
    ClusterProperties cluster = new ClusterProperties();
    cluster.setScanSpread(Duration.ofSeconds(2));
    assertThatThrownBy(() -> cluster.toScanConfig(ScanConfig.DEFAULT_REDIS_TIMEOUT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("kairos.cluster.scan-spread")
        .hasMessageContaining("kairos.cluster.scan-interval");
  }
}
