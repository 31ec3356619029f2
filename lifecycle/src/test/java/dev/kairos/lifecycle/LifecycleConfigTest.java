package dev.kairos.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.protocol.event.EventsConsumerSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LifecycleConfigTest {

  @Test
  void defaultsAreTheConstantsAndToBuilderKeepsEverySetting() {
    assertThat(LifecycleConfig.defaults("node-a"))
        .isEqualTo(
            new LifecycleConfig(
                new EventsConsumerSettings(
                    LifecycleConfig.DEFAULT_GROUP,
                    "node-a",
                    LifecycleConfig.DEFAULT_BATCH_SIZE,
                    LifecycleConfig.DEFAULT_POLL_INTERVAL,
                    LifecycleConfig.DEFAULT_CLAIM_IDLE,
                    LifecycleConfig.DEFAULT_CLAIM_INTERVAL),
                LifecycleConfig.DEFAULT_MAX_CHILD_DEPTH,
                LifecycleConfig.DEFAULT_REDIS_TIMEOUT));
    LifecycleConfig tuned =
        new LifecycleConfig(
            new EventsConsumerSettings(
                "group",
                "node-b",
                7,
                Duration.ofMillis(20),
                Duration.ofMillis(500),
                Duration.ofMillis(200)),
            3,
            Duration.ofSeconds(1));
    assertThat(tuned.toBuilder().build()).isEqualTo(tuned);
    assertThat(tuned.toBuilder().maxChildDepth(4).build().maxChildDepth()).isEqualTo(4);
  }

  @Test
  void theBuilderIsCheckedLikeTheConstructor() {
    assertThatThrownBy(() -> LifecycleConfig.builder("node-a").batchSize(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batchSize");
    assertThatThrownBy(() -> LifecycleConfig.builder(" ").build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
