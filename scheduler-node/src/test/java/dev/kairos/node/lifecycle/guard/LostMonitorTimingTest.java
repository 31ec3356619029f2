package dev.kairos.node.lifecycle.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LostMonitorTimingTest {

  private static final Duration DEDUP_WINDOW = Duration.ofMinutes(10);

  @Test
  void theDefaultsHoldForTheDefaultDedupWindow() {
    LostMonitorProperties defaults = new LostMonitorProperties();

    assertThat(defaults.getBacklogLimit()).isEqualTo(Duration.ofMinutes(5));
    assertThat(GuardConfiguration.timingViolations(defaults, DEDUP_WINDOW)).isEmpty();
  }

  @Test
  void aBacklogLimitReachingTheDedupWindowIsRefused() {
    LostMonitorProperties properties = new LostMonitorProperties();
    properties.setBacklogLimit(DEDUP_WINDOW);

    assertThat(GuardConfiguration.timingViolations(properties, DEDUP_WINDOW))
        .singleElement()
        .asString()
        .startsWith("kairos.lifecycle.monitor.backlog-limit (PT10M) must be less than");
  }

  @Test
  void aBacklogLimitBelowTheStartTimeoutIsRefused() {
    LostMonitorProperties properties = new LostMonitorProperties();
    properties.setBacklogLimit(Duration.ofSeconds(30));

    assertThat(GuardConfiguration.timingViolations(properties, DEDUP_WINDOW))
        .singleElement()
        .asString()
        .contains("must be at least kairos.lifecycle.monitor.start-timeout");
  }

  @Test
  void aStartTimeoutReachingTheDedupWindowIsStillRefused() {
    LostMonitorProperties properties = new LostMonitorProperties();
    properties.setStartTimeout(Duration.ofMinutes(10));
    properties.setBacklogLimit(Duration.ofMinutes(11));

    assertThat(GuardConfiguration.timingViolations(properties, DEDUP_WINDOW))
        .hasSize(2)
        .allSatisfy(v -> assertThat(v).contains("must be less than kairos.cluster.dedup-window"));
  }
}
