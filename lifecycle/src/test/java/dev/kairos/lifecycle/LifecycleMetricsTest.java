package dev.kairos.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.protocol.record.TriggerFields;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LifecycleMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final LifecycleMetrics metrics = new LifecycleMetrics(registry);

  @Test
  void aTriggerThatRanRecordsStartLatenessAndClaimToStart() {
    metrics.recordStart(
        Map.of(
            TriggerFields.FIRE_MS, "10000",
            TriggerFields.CLAIMED_MS, "6000",
            TriggerFields.STARTED_MS, "10250"));

    Timer lateness = registry.get("kairos.triggers.start.lateness").timer();
    Timer claimToStart = registry.get("kairos.triggers.claim.to.start").timer();
    assertThat(lateness.count()).isEqualTo(1);
    assertThat(lateness.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(250);
    assertThat(claimToStart.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(4250);
  }

  @Test
  void startHistogramsPublishBucketsSoTheyAggregateAcrossNodes() {
    // The configuration each meter is registered with, as a Prometheus registry would receive it
    // (the simple registry does not publish aggregable buckets itself).
    Map<String, DistributionStatisticConfig> configs = new HashMap<>();
    SimpleMeterRegistry observed = new SimpleMeterRegistry();
    observed
        .config()
        .meterFilter(
            new MeterFilter() {
              @Override
              public DistributionStatisticConfig configure(
                  Meter.Id id, DistributionStatisticConfig config) {
                configs.put(id.getName(), config);
                return config;
              }
            });
    new LifecycleMetrics(observed);

    for (String name :
        List.of("kairos.triggers.start.lateness", "kairos.triggers.claim.to.start")) {
      DistributionStatisticConfig config = configs.get(name);
      assertThat(config.isPercentileHistogram()).as(name).isTrue();
      assertThat(config.getMinimumExpectedValueAsDouble()).isEqualTo(1e6); // 1 ms in ns
      assertThat(config.getMaximumExpectedValueAsDouble()).isEqualTo(300e9); // 5 min in ns
    }
  }

  @Test
  void aTriggerThatNeverStartedOrStartedBeforeItsFireRecordsNothing() {
    metrics.recordStart(Map.of(TriggerFields.FIRE_MS, "10000", TriggerFields.CLAIMED_MS, "6000"));
    metrics.recordStart(Map.of(TriggerFields.FIRE_MS, "10000", TriggerFields.STARTED_MS, "9990"));
    metrics.recordStart(Map.of(TriggerFields.FIRE_MS, "garbage", TriggerFields.STARTED_MS, "1"));

    assertThat(registry.get("kairos.triggers.start.lateness").timer().count()).isZero();
    assertThat(registry.get("kairos.triggers.claim.to.start").timer().count()).isZero();
  }
}
