package dev.kairos.node.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.lifecycle.LifecycleConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LifecyclePropertiesTest {

  @Test
  void unsetPropertiesGiveTheWorkersDefaultsWithFiveRedisTimeoutsPerRound() {
    assertThat(new LifecycleProperties().toConfig("node-a", Duration.ofSeconds(2)))
        .isEqualTo(LifecycleConfig.builder("node-a").redisTimeout(Duration.ofSeconds(10)).build());
  }

  @Test
  void setPropertiesReachTheWorkersSettings() {
    LifecycleProperties properties = new LifecycleProperties();
    properties.setBatchSize(50);
    properties.setClaimIdle(Duration.ofSeconds(45));
    assertThat(properties.toConfig("node-a", Duration.ofSeconds(2)))
        .isEqualTo(
            LifecycleConfig.builder("node-a")
                .batchSize(50)
                .claimIdle(Duration.ofSeconds(45))
                .redisTimeout(Duration.ofSeconds(10))
                .build());
  }
}
