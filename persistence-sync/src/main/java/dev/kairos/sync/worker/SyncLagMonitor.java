package dev.kairos.sync.worker;

import dev.kairos.core.lifecycle.Lifecycle;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Refreshes {@link SyncHealth} periodically on a thread named {@code kairos-sync-lag}. */
public final class SyncLagMonitor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SyncLagMonitor.class);

  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

  private final Lifecycle lifecycle = new Lifecycle("lag monitor");
  private final SyncHealth health;
  private final Duration interval;
  private final SyncMetrics metrics;
  private ScheduledExecutorService executor;

  public SyncLagMonitor(SyncHealth health, Duration interval, SyncMetrics metrics) {
    this.health = health;
    this.interval = interval;
    this.metrics = metrics;
  }

  public void start() {
    lifecycle.start();
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kairos-sync-lag");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(this::refresh, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void refresh() {
    try {
      health.refresh();
    } catch (RuntimeException e) {
      if (!lifecycle.isStarted()) {
        return; // close() interrupted the call in flight: not a failure
      }
      // Redis unavailable for a moment: the gauges keep their last values.
      metrics.loopError();
      log.warn("persistence-sync lag sampling failed ({}); will keep running", e.toString());
    }
  }

  @Override
  public void close() {
    if (!lifecycle.closeStarted()) {
      return;
    }
    executor.shutdownNow();
  }
}
