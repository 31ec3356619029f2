package dev.kairos.node.workflow;

import dev.kairos.coordinator.cluster.LeadershipListener;
import dev.kairos.workflow.WorkflowScheduler;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader duty: one {@link WorkflowScheduler} per term, started on {@code onElected} and closed on
 * {@code onRevoked}, like the scan loop and the lost-trigger monitor.
 */
final class WorkflowScheduleDuty implements LeadershipListener, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WorkflowScheduleDuty.class);

  private final Supplier<WorkflowScheduler> schedulers;
  private final AtomicReference<Term> current = new AtomicReference<>();

  private record Term(long term, WorkflowScheduler scheduler) {}

  WorkflowScheduleDuty(Supplier<WorkflowScheduler> schedulers) {
    this.schedulers = schedulers;
  }

  @Override
  public void onElected(long term) {
    WorkflowScheduler s = schedulers.get();
    Term previous = current.getAndSet(new Term(term, s));
    if (previous != null) {
      previous.scheduler().close(); // Safety: never two terms starting runs in one process.
    }
    s.start();
    log.info("term={} this node leads: workflow schedule started", term);
  }

  @Override
  public void onRevoked(long term) {
    Term t = current.get();
    if (t != null && t.term() == term && current.compareAndSet(t, null)) {
      t.scheduler().close();
      log.info("term={} leadership revoked: workflow schedule stopped", term);
    }
  }

  @Override
  public void close() {
    Term t = current.getAndSet(null);
    if (t != null) {
      t.scheduler().close();
    }
  }
}
