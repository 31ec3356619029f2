package dev.kairos.workflow;

import dev.kairos.core.lifecycle.PeriodicTask;
import dev.kairos.core.time.KairosClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's workflow schedule: every tick, one {@code ZRANGEBYSCORE} on the due ZSET; for each
 * scheduled workflow whose fire time has come, starts the run of that fire (its id is the
 * workflow's and the fire's, so a new leader starting it again finds it) and moves the due entry to
 * the next fire after now. A fire missed while no leader ticked (misfire) runs once, as soon as a
 * leader ticks; the fires missed in between are not made up.
 *
 * <p>One instance per leader term: started on election, closed on revocation. Only its loop thread
 * calls {@link #tick()}.
 */
public final class WorkflowScheduler implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WorkflowScheduler.class);

  public static final Duration DEFAULT_TICK = Duration.ofMillis(500);

  /** Workflows started per tick at most; the rest wait for the next tick. */
  static final int MAX_PER_TICK = 100;

  private final WorkflowStore store;
  private final WorkflowDriver driver;
  private final KairosClock clock;
  private final Counter failures;
  private final PeriodicTask task;

  public WorkflowScheduler(
      WorkflowStore store,
      WorkflowDriver driver,
      KairosClock clock,
      Duration tick,
      MeterRegistry meters) {
    this.store = store;
    this.driver = driver;
    this.clock = clock;
    this.failures =
        Counter.builder("kairos.workflow.scheduler.failures")
            .description("workflow schedule ticks that failed (the loop keeps running)")
            .register(meters);
    this.task =
        new PeriodicTask(
            "workflow scheduler",
            "kairos-workflow-scheduler",
            tick,
            this::tick,
            e -> {
              failures.increment();
              log.warn("workflow schedule tick failed; will keep running: {}", e.toString());
            });
  }

  public void start() {
    task.start();
  }

  /**
   * Starts the runs that are due and finishes the API starts a node left unfinished; returns how
   * many entries it handled.
   */
  public int tick() {
    long now = clock.nowMs();
    List<WorkflowStore.Due> due = store.due(now, MAX_PER_TICK);
    for (WorkflowStore.Due d : due) {
      Optional<WorkflowDefinition> w = store.get(d.workflowId());
      if (w.isEmpty() || !w.get().enabled() || w.get().schedule() == null) {
        store.advance(d.workflowId(), d.fireMs(), OptionalLong.empty());
        continue;
      }
      driver.startScheduled(w.get(), d.fireMs());
      OptionalLong next = WorkflowStore.nextFire(w.get(), Math.max(now, d.fireMs()));
      store.advance(d.workflowId(), d.fireMs(), next);
    }
    List<String> unfinished = store.unfinishedStarts(now, MAX_PER_TICK);
    unfinished.forEach(driver::finishStart);
    return due.size() + unfinished.size();
  }

  @Override
  public void close() {
    task.close();
  }
}
