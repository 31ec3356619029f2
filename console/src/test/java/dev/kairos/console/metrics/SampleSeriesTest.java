package dev.kairos.console.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
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

  /**
   * The lifecycle worker's start-lateness histogram, as the node registers it: each sample's
   * percentiles are those of the starts recorded in its interval, not since the node started.
   */
  @Test
  void startLatencyPercentilesAreThoseOfTheStartsRecordedInTheInterval() {
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Timer starts =
        Timer.builder("kairos.triggers.start.lateness")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(5))
            .register(meters);
    SampleSeries series = new SampleSeries(10);
    series.add(MeterTotals.read(meters, 1_000));
    for (int i = 0; i < 1_000; i++) {
      starts.record(Duration.ofMillis(1_000)); // a slow first interval
    }
    series.add(MeterTotals.read(meters, 2_000));
    for (int i = 0; i < 98; i++) {
      starts.record(Duration.ofMillis(5));
    }
    starts.record(Duration.ofMillis(40));
    starts.record(Duration.ofMillis(40));
    series.add(MeterTotals.read(meters, 3_000));
    series.add(MeterTotals.read(meters, 4_000)); // nothing ended in this interval

    List<DashboardSample> samples = series.samples();
    assertThat(samples.get(0).startP50Ms()).isBetween(800.0, 1_200.0);
    DashboardSample fast = samples.get(1);
    assertThat(fast.startP50Ms()).as("the slow interval does not count").isBetween(4.0, 6.0);
    assertThat(fast.startP99Ms()).isBetween(30.0, 50.0);
    assertThat(samples.get(2).startP50Ms()).as("no start in the interval").isNaN();
  }

  @Test
  void bucketsReadLikePrometheusHistogramQuantile() {
    LatencyBuckets b = new LatencyBuckets(new double[] {10, 20, 40}, new double[] {0, 50, 100});
    assertThat(b.percentileMs(0.5)).isEqualTo(20.0);
    assertThat(b.percentileMs(0.75)).isEqualTo(30.0);
    assertThat(b.percentileMs(0.25)).isEqualTo(15.0);
    assertThat(LatencyBuckets.EMPTY.percentileMs(0.5)).isNaN();
    LatencyBuckets reset = new LatencyBuckets(new double[] {10, 20, 40}, new double[] {1, 1, 2});
    assertThat(reset.since(b).count()).as("a reset timer counts from zero").isEqualTo(2.0);
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
