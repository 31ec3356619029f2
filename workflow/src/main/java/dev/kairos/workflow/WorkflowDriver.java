package dev.kairos.workflow;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerKind;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.time.KairosClock;
import dev.kairos.lifecycle.ChainEndListener;
import dev.kairos.protocol.adhoc.AdhocRequest;
import dev.kairos.protocol.adhoc.AdhocSubmission;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.record.TriggerFields;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Moves workflow runs forward. A run starts (API or schedule) by being created with its roots
 * TRIGGERED and their ad-hoc triggers submitted; from then on it is driven by the lifecycle worker,
 * which tells this driver each node trigger chain's final end ({@link ChainEndListener}) before it
 * acknowledges the end's stream entry. Each end is one compare-and-set on the run (recording the
 * end and marking the nodes that became ready), then the ready nodes' triggers are submitted with
 * deterministic ids: a replay after a crash submits them again and gets DUPLICATE. So every node of
 * a run starts once, whichever node process dies where.
 */
public final class WorkflowDriver implements ChainEndListener {

  private static final Logger log = LoggerFactory.getLogger(WorkflowDriver.class);

  /** Attempts at a run's compare-and-set before the end is left to a replay. */
  static final int CAS_ATTEMPTS = 20;

  public static final Duration DEFAULT_RUN_RETENTION = Duration.ofDays(7);

  /** Longer than any start takes: a note older than this is a start a dead node left. */
  static final Duration START_RECOVERY_AFTER = Duration.ofSeconds(10);

  private final WorkflowStore store;
  private final AdhocTriggers adhoc;
  private final KairosClock clock;
  private final Duration retention;
  private final WorkflowMetrics metrics;

  public WorkflowDriver(
      WorkflowStore store,
      AdhocTriggers adhoc,
      KairosClock clock,
      Duration retention,
      MeterRegistry meters) {
    this.store = store;
    this.adhoc = adhoc;
    this.clock = clock;
    this.retention = retention;
    this.metrics = new WorkflowMetrics(meters);
  }

  /**
   * Starts a run of {@code w} now (the API's "start"): a new run id each call. The run is noted as
   * starting before it is written and until its roots are submitted, so a node that dies in between
   * leaves the leader a note to submit them ({@link #finishStart}).
   */
  public WorkflowRun startNow(WorkflowDefinition w) {
    long now = clock.nowMs();
    String nonce = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffffL);
    String runId = WorkflowRun.apiId(w.id(), now, nonce);
    store.markStarting(runId, now + START_RECOVERY_AFTER.toMillis());
    WorkflowRun run = start(w, runId, now, "API");
    store.startedFully(runId);
    return run;
  }

  /**
   * The leader's side of an API start a node did not finish: submits the run's triggered roots
   * again (duplicates when they were submitted after all) and forgets the note. A run that was
   * never written (the node died before) is only forgotten: its caller got no run id.
   */
  public void finishStart(String runId) {
    Optional<WorkflowRun> run = store.run(runId).map(WorkflowStore.Versioned::run);
    if (run.isPresent() && run.get().state() == RunState.RUNNING) {
      log.warn("workflow run {}: its start was not finished; submitting its roots", runId);
      submitAll(run.get(), DagStep.triggeredRoots(run.get()));
    }
    store.startedFully(runId);
  }

  /**
   * Starts the run of {@code w} for {@code fireMs}, or finds it when it exists (a new leader
   * starting the same fire again) and submits its TRIGGERED roots again (harmless duplicates).
   */
  public WorkflowRun startScheduled(WorkflowDefinition w, long fireMs) {
    return start(w, WorkflowRun.scheduledId(w.id(), fireMs), fireMs, "SCHEDULE");
  }

  private WorkflowRun start(WorkflowDefinition w, String runId, long fireMs, String trigger) {
    long now = clock.nowMs();
    DagStep.Result step = DagStep.start(WorkflowRun.of(runId, w, fireMs, trigger, now), now);
    WorkflowRun run = step.run();
    List<DagStep.Ready> ready = step.ready();
    if (store.createRun(run)) {
      metrics.runStarted(trigger);
      log.info(
          "workflow {} run {} started ({}), {} root node(s)", w.id(), runId, trigger, ready.size());
    } else {
      run = store.run(runId).map(WorkflowStore.Versioned::run).orElse(run);
      ready = run.state() == RunState.RUNNING ? DagStep.triggeredRoots(run) : List.of();
    }
    store.indexRun(run);
    submitAll(run, ready);
    return store.run(runId).map(WorkflowStore.Versioned::run).orElse(run);
  }

  /** Cancels a run: nothing more starts; nodes already triggered run to their end. */
  public WorkflowRun cancel(String runId) {
    return apply(runId, r -> DagStep.cancel(r, clock.nowMs())).run();
  }

  public Optional<WorkflowRun> run(String runId) {
    return store.run(runId).map(WorkflowStore.Versioned::run);
  }

  @Override
  public boolean accepts(TriggerId triggerId) {
    return triggerId.isWorkflowNode();
  }

  @Override
  public void chainEnded(TriggerId triggerId, TriggerState state, Map<String, String> record) {
    String runId = triggerId.workflowRunId();
    String node = triggerId.workflowNodeName();
    boolean success = state == TriggerState.SUCCESS;
    String message = record.get(TriggerFields.MESSAGE);
    DagStep.Result step =
        apply(runId, r -> DagStep.nodeEnded(r, node, triggerId, success, message, clock.nowMs()));
    if (step.run() == null) {
      log.info("workflow run {} is gone: the end of node {} changes nothing", runId, node);
      return;
    }
    log.debug("workflow run {} node {} ended {}", runId, node, state);
    submitAll(step.run(), step.ready());
  }

  /** Applies a step with a compare-and-set, reading again when another writer came first. */
  private DagStep.Result apply(
      String runId, java.util.function.Function<WorkflowRun, DagStep.Result> f) {
    for (int i = 0; i < CAS_ATTEMPTS; i++) {
      Optional<WorkflowStore.Versioned> read = store.run(runId);
      if (read.isEmpty()) {
        return new DagStep.Result(null, false, List.of());
      }
      DagStep.Result step = f.apply(read.get().run());
      if (!step.changed()) {
        return step;
      }
      long written = store.updateRun(step.run(), read.get().rev(), retention.toMillis());
      if (written == 1L) {
        if (step.run().endedMs() > 0 && read.get().run().endedMs() == 0) {
          metrics.runEnded(step.run().state());
          log.info("workflow run {} ended {}", runId, step.run().state());
        }
        return step;
      }
      if (written == -2L) {
        return new DagStep.Result(null, false, List.of());
      }
      metrics.conflicts.increment();
    }
    // Safety: thrown to the lifecycle worker, which leaves the end unacknowledged to replay it.
    throw new KairosException(
        "workflow run " + runId + " kept changing under " + CAS_ATTEMPTS + " writes");
  }

  /**
   * Submits the ready nodes' triggers. A node whose job is missing or disabled never ends by
   * itself, so it is recorded FAILED at once (which may make other nodes ready in turn).
   */
  private void submitAll(WorkflowRun run, List<DagStep.Ready> ready) {
    Deque<DagStep.Ready> queue = new ArrayDeque<>(ready);
    while (!queue.isEmpty()) {
      DagStep.Ready r = queue.poll();
      MDC.put("jobId", r.jobId());
      MDC.put("triggerId", r.triggerId().value());
      try {
        AdhocSubmission s =
            adhoc.submit(
                new AdhocRequest(
                    r.triggerId(),
                    TriggerKind.MANUAL,
                    clock.nowMs(),
                    1,
                    r.params(),
                    Optional.empty(),
                    0,
                    OptionalLong.empty()));
        switch (s.outcome()) {
          case ACCEPTED -> {
            metrics.nodeTriggers.increment();
            log.info("workflow run {} node {} triggered", run.id(), r.node());
          }
          case DUPLICATE -> metrics.duplicates.increment();
          case JOB_NOT_FOUND, JOB_DISABLED -> {
            metrics.nodesNotStarted.increment();
            log.warn(
                "workflow run {} node {} cannot start: {}; recorded FAILED",
                run.id(),
                r.node(),
                s.outcome());
            DagStep.Result next =
                apply(
                    run.id(),
                    x ->
                        DagStep.nodeEnded(
                            x, r.node(), r.triggerId(), false, s.outcome().name(), clock.nowMs()));
            queue.addAll(next.ready());
          }
        }
      } finally {
        MDC.remove("jobId");
        MDC.remove("triggerId");
      }
    }
  }
}
