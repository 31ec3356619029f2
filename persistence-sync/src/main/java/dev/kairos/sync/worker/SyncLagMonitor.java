package dev.kairos.sync.worker;

import dev.kairos.core.lifecycle.PeriodicTask;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Refreshes {@link SyncHealth} periodically on a thread named {@code kairos-sync-lag}. */
public final class SyncLagMonitor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SyncLagMonitor.class);

  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

  private final PeriodicTask task;

  public SyncLagMonitor(SyncHealth health, Duration interval, SyncMetrics metrics) {
    this.task =
        new PeriodicTask(
            "lag monitor",
            "kairos-sync-lag",
            interval,
            health::refresh,
            e -> {
              // Redis unavailable for a moment: the gauges keep their last values.
              metrics.loopError();
              log.warn(
                  "persistence-sync lag sampling failed ({}); will keep running", e.toString());
            });
  }

  public void start() {
    task.start();
  }

  @Override
  public void close() {
    task.close();
  }
}
