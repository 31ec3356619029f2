package dev.kairos.console.metrics;

import dev.kairos.core.lifecycle.Lifecycle;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the node's meters every interval into a {@link SampleSeries} for the dashboard's charts.
 * One daemon thread; a failed read is logged and the loop keeps running.
 */
public final class MeterSampler implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(MeterSampler.class);

  private final MeterRegistry meters;
  private final SampleSeries series;
  private final Duration interval;
  private final Lifecycle lifecycle = new Lifecycle("meter sampler");
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "kairos-console-sampler");
            t.setDaemon(true);
            return t;
          });

  public MeterSampler(MeterRegistry meters, SampleSeries series, Duration interval) {
    this.meters = meters;
    this.series = series;
    this.interval = interval;
  }

  public void start() {
    lifecycle.start();
    thread.scheduleAtFixedRate(this::sampleOnce, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  void sampleOnce() {
    try {
      series.add(MeterTotals.read(meters, System.currentTimeMillis()));
    } catch (RuntimeException e) {
      if (!lifecycle.isStarted()) {
        return; // close() interrupted the call in flight: not a failure
      }
      log.warn("console: reading the meters failed, will keep running", e);
    }
  }

  public SampleSeries series() {
    return series;
  }

  @Override
  public void close() {
    if (lifecycle.close()) {
      thread.shutdownNow();
    }
  }
}
