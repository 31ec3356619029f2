package dev.kairos.console.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class SampleSeriesTest {

  @Test
  void theFirstTotalsAreOnlyABaselineThenRatesAreDifferencesPerSecond() {
    SampleSeries series = new SampleSeries(10);
    series.add(new MeterTotals(1_000, 100, 1, 2, 5, 9));
    assertThat(series.samples()).isEmpty();
    series.add(new MeterTotals(3_000, 140, 4, 2, 6, 12));
    DashboardSample s = series.samples().get(0);
    assertThat(s.firesPerSecond()).isEqualTo(20.0);
    assertThat(s.misfires()).isEqualTo(3.0);
    assertThat(s.failures()).isZero();
    assertThat(s.latenessP99Ms()).isEqualTo(12.0);
  }

  @Test
  void theSeriesKeepsOnlyItsCapacityNewestFirstDropped() {
    SampleSeries series = new SampleSeries(3);
    for (int i = 0; i <= 5; i++) {
      series.add(new MeterTotals(1_000L * i, i, 0, 0, 0, 0));
    }
    assertThat(series.samples())
        .extracting(DashboardSample::atMs)
        .containsExactly(3_000L, 4_000L, 5_000L);
  }

  @Test
  void aCounterThatWentDownCountsFromZero() {
    SampleSeries series = new SampleSeries(3);
    series.add(new MeterTotals(1_000, 500, 0, 0, 0, 0));
    series.add(new MeterTotals(2_000, 7, 0, 0, 0, 0));
    assertThat(series.samples().get(0).firesPerSecond()).isEqualTo(7.0);
  }

  @Test
  void totalsSumTheNodesMetersOverTheirTags() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    meters.counter("kairos.fires.dispatched", "node", "a").increment(3);
    meters.counter("kairos.fires.dispatched", "node", "b").increment(4);
    meters.counter("kairos.results", "node", "a", "status", "FAIL").increment(2);
    meters.counter("kairos.results", "node", "a", "status", "TIMEOUT").increment(1);
    meters.counter("kairos.results", "node", "a", "status", "SUCCESS").increment(50);
    meters.counter("kairos.fires.no.executor", "node", "a").increment(5);
    meters.counter("kairos.scan.misfires").increment(6);
    MeterTotals totals = MeterTotals.read(meters, 42);
    assertThat(totals.dispatched()).isEqualTo(7.0);
    assertThat(totals.failures()).as("FAIL + TIMEOUT + NO_EXECUTOR").isEqualTo(8.0);
    assertThat(totals.misfires()).isEqualTo(6.0);
    assertThat(totals.latenessP50Ms()).as("nothing sent yet").isNaN();
  }
}
