package dev.kairos.node.cluster.internal;

import dev.kairos.coordinator.cluster.LeadershipListener;
import dev.kairos.coordinator.scan.ScanLoop;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this node does while it leads: one {@link ScanLoop} per term, started on {@code onElected}
 * and closed on {@code onRevoked} (or when the term turns out stale). The failover sweeper is a
 * listener of its own. Calls arrive serialised from the leadership manager.
 */
final class LeaderDuties implements LeadershipListener, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LeaderDuties.class);

  private final LongFunction<ScanLoop> loops;
  private final Consumer<Long> termObserved;
  private final AtomicReference<ScanLoop> current = new AtomicReference<>();

  /**
   * @param loops builds the (not yet started) scan loop of a term
   * @param termObserved told every higher term this node sees
   */
  LeaderDuties(LongFunction<ScanLoop> loops, Consumer<Long> termObserved) {
    this.loops = Objects.requireNonNull(loops, "loops");
    this.termObserved = Objects.requireNonNull(termObserved, "termObserved");
  }

  @Override
  public void onElected(long term) {
    ScanLoop loop = loops.apply(term);
    ScanLoop previous = current.getAndSet(loop);
    if (previous != null) {
      previous.close(); // Safety: never two terms scanning in one process.
    }
    loop.start();
    log.info("term={} this node leads: scanning started", term);
  }

  @Override
  public void onRevoked(long term) {
    ScanLoop loop = current.get();
    if (loop != null && loop.term() == term && current.compareAndSet(loop, null)) {
      loop.close();
      log.info("term={} leadership revoked: scanning stopped", term);
    }
  }

  @Override
  public void onTermObserved(long term) {
    termObserved.accept(term);
  }

  /** The term whose loop is scanning now, or 0. */
  long scanningTerm() {
    ScanLoop loop = current.get();
    return loop != null && loop.isRunning() ? loop.term() : 0;
  }

  /** When the running term's first scan pass completed (cluster time, epoch ms), or 0. */
  long firstScanMs() {
    ScanLoop loop = current.get();
    return loop != null && loop.isRunning() ? loop.firstPassMs() : 0;
  }

  /** Closes the running loop, if any. */
  @Override
  public void close() {
    ScanLoop loop = current.getAndSet(null);
    if (loop != null) {
      loop.close();
    }
  }
}
