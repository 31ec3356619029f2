package dev.kairos.sync.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.sync.worker.SyncConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SyncPropertiesTest {

  @Test
  void unsetPropertiesGiveTheWorkersDefaultsUnderTheHostName() {
    assertThat(new SyncProperties().toConfig("host-1")).isEqualTo(SyncConfig.defaults("host-1"));
  }

  @Test
  void setPropertiesReachTheWorkersSettings() {
    SyncProperties properties = new SyncProperties();
    properties.setConsumer("node-7");
    properties.setClaimIdle(Duration.ofSeconds(90));
    properties.setConsumerExpiry(Duration.ofMinutes(3));
    assertThat(properties.toConfig("host-1"))
        .isEqualTo(
            SyncConfig.builder("node-7")
                .claimIdle(Duration.ofSeconds(90))
                .consumerExpiry(Duration.ofMinutes(3))
                .build());
  }
}
