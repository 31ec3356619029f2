package dev.kairos.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.error.KairosException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ElectionConfigTest {

  private static final Duration SWEEP = Duration.ofSeconds(10);

  @Test
  void defaultsHoldTheDesignRules() {
    ElectionConfig config = ElectionConfig.defaults();
    assertThat(config.heartbeatInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.leaderTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(config.sessionTimeout()).isEqualTo(Duration.ofSeconds(6));
  }

  @Test
  void heartbeatMustBeBelowAThirdOfTheLeaderTimeout() {
    assertThatThrownBy(
            () ->
                new ElectionConfig(
                    Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(6), SWEEP))
        .isInstanceOf(KairosException.class)
        .hasMessageContaining("heartbeat interval");
    new ElectionConfig(Duration.ofMillis(999), Duration.ofSeconds(3), Duration.ofSeconds(6), SWEEP);
  }

  @Test
  void leaderTimeoutMustNotExceedTheSessionTimeout() {
    assertThatThrownBy(
            () ->
                new ElectionConfig(
                    Duration.ofMillis(100), Duration.ofSeconds(7), Duration.ofSeconds(6), SWEEP))
        .isInstanceOf(KairosException.class)
        .hasMessageContaining("session timeout");
  }

  @Test
  void zkLayoutPadsTermsSoTheySort() {
    ZkLayout layout = new ZkLayout("/kairos");
    assertThat(layout.term(8)).isEqualTo("/kairos/terms/0000000000000000008");
    assertThat(layout.leader()).isEqualTo("/kairos/leader");
    assertThat(layout.member("n1")).isEqualTo("/kairos/members/n1");
    assertThatThrownBy(() -> new ZkLayout("kairos/")).isInstanceOf(IllegalArgumentException.class);
  }
}
