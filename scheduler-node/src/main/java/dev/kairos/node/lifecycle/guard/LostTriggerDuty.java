package dev.kairos.node.lifecycle.guard;

import dev.kairos.coordinator.cluster.LeadershipListener;
import dev.kairos.protocol.fence.StaleTermException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader duty: runs one {@link LostTriggerMonitor} per term, started on {@code onElected} and
 * closed on {@code onRevoked}, so only the current leader marks LOST or re-dispatches (and the
 * shard fences stop a stale one). Calls arrive serialised from the leadership manager.
 */
public final class LostTriggerDuty implements LeadershipListener, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LostTriggerDuty.class);

  /** Builds the (not yet started) monitor of a term. */
  @FunctionalInterface
  interface MonitorFactory {
    LostTriggerMonitor create(long term, Consumer<StaleTermException> onStaleTerm);
  }

  private final MonitorFactory monitors;
  private final AtomicReference<LostTriggerMonitor> current = new AtomicReference<>();
  private volatile Consumer<StaleTermException> onStaleTerm = e -> {};

  LostTriggerDuty(MonitorFactory monitors) {
    this.monitors = Objects.requireNonNull(monitors, "monitors");
  }

  /** Where a fence rejection is reported (the leadership manager, to step down). */
  public void onStaleTerm(Consumer<StaleTermException> handler) {
    this.onStaleTerm = Objects.requireNonNull(handler, "handler");
  }

  @Override
  public void onElected(long term) {
    LostTriggerMonitor monitor = monitors.create(term, e -> onStaleTerm.accept(e));
    LostTriggerMonitor previous = current.getAndSet(monitor);
    if (previous != null) {
      previous.close(); // Safety: never two terms judging in one process.
    }
    monitor.start();
  }

  @Override
  public void onRevoked(long term) {
    LostTriggerMonitor monitor = current.get();
    if (monitor != null && monitor.term() == term && current.compareAndSet(monitor, null)) {
      monitor.close();
    }
  }

  /** The term whose monitor runs now, or 0. */
  public long monitoringTerm() {
    LostTriggerMonitor monitor = current.get();
    return monitor != null && monitor.isRunning() ? monitor.term() : 0;
  }

  @Override
  public void close() {
    LostTriggerMonitor monitor = current.getAndSet(null);
    if (monitor != null) {
      monitor.close();
      log.info("term={} lost-trigger duty closed", monitor.term());
    }
  }
}
