package dev.kairos.sync.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.protocol.event.EventsConsumerSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SyncConfigTest {

  @Test
  void defaultsAreTheConstantsAndToBuilderKeepsEverySetting() {
    assertThat(SyncConfig.defaults("node-a"))
        .isEqualTo(
            new SyncConfig(
                new EventsConsumerSettings(
                    SyncConfig.DEFAULT_GROUP,
                    "node-a",
                    SyncConfig.DEFAULT_BATCH_SIZE,
                    SyncConfig.DEFAULT_POLL_INTERVAL,
                    SyncConfig.DEFAULT_CLAIM_IDLE,
                    SyncConfig.DEFAULT_CLAIM_INTERVAL),
                SyncConfig.DEFAULT_MAX_EVENTS_PER_ROUND,
                SyncConfig.DEFAULT_TRIM_INTERVAL,
                SyncConfig.DEFAULT_RETRY_INITIAL,
                SyncConfig.DEFAULT_RETRY_MAX,
                SyncConfig.DEFAULT_CONSUMER_EXPIRY));
    SyncConfig tuned =
        new SyncConfig(
            new EventsConsumerSettings(
                "group",
                "node-b",
                5,
                Duration.ofMillis(1),
                Duration.ofMillis(2),
                Duration.ofMillis(3)),
            50,
            Duration.ofMillis(4),
            Duration.ofMillis(5),
            Duration.ofMillis(6),
            Duration.ofMillis(7));
    assertThat(tuned.toBuilder().build()).isEqualTo(tuned);
    assertThat(tuned.toBuilder().retryMax(Duration.ofMillis(8)).build().retryMax())
        .isEqualTo(Duration.ofMillis(8));
  }

  @Test
  void theBuilderIsCheckedLikeTheConstructor() {
    assertThatThrownBy(
            () -> SyncConfig.builder("node-a").batchSize(10).maxEventsPerRound(9).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxEventsPerRound");
    assertThatThrownBy(() -> SyncConfig.builder("node-a").claimIdle(Duration.ZERO).build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
