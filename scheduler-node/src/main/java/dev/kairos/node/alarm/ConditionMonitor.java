package dev.kairos.node.alarm;

import dev.kairos.core.lifecycle.Lifecycle;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the cluster-condition checks every interval on one thread named {@code
 * kairos-alarm-monitor}. A failing check is logged and counted ({@code
 * kairos.alarm.monitor.errors}) and runs again at the next interval; gauge {@code
 * kairos.alarm.condition.active} is 1 while a check's condition holds.
 */
public final class ConditionMonitor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ConditionMonitor.class);

  private final List<ConditionCheck> checks;
  private final Duration interval;
  private final MeterRegistry meters;
  private final Lifecycle lifecycle = new Lifecycle("condition monitor");
  private ScheduledExecutorService executor;

  ConditionMonitor(List<ConditionCheck> checks, Duration interval, MeterRegistry meters) {
    this.checks = List.copyOf(checks);
    this.interval = interval;
    this.meters = meters;
    for (ConditionCheck check : this.checks) {
      Gauge.builder("kairos.alarm.condition.active", check, c -> c.active() ? 1 : 0)
          .tag("check", check.name())
          .description("1 while the cluster condition of the check holds on this node")
          .register(meters);
    }
  }

  public void start() {
    lifecycle.start();
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kairos-alarm-monitor");
              t.setDaemon(true);
              return t;
            });
    for (ConditionCheck check : checks) {
      Counter errors = meters.counter("kairos.alarm.monitor.errors", "check", check.name());
      executor.scheduleWithFixedDelay(
          () -> run(check, errors),
          interval.toMillis(),
          interval.toMillis(),
          TimeUnit.MILLISECONDS);
    }
    log.info(
        "alarm monitor started checks={} interval={}ms",
        checks.stream().map(ConditionCheck::name).toList(),
        interval.toMillis());
  }

  private void run(ConditionCheck check, Counter errors) {
    try {
      check.check();
    } catch (RuntimeException e) {
      if (!lifecycle.isStarted()) {
        return; // close() interrupted the call in flight: not a failure
      }
      errors.increment();
      log.warn("alarm check {} failed ({}); will keep running", check.name(), e.toString());
    }
  }

  @Override
  public void close() {
    if (!lifecycle.closeStarted()) {
      return;
    }
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
