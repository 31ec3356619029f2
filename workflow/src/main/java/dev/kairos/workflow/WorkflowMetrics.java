package dev.kairos.workflow;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** What an operator watches of workflows. */
final class WorkflowMetrics {

  private final MeterRegistry meters;
  final Counter nodeTriggers;
  final Counter duplicates;
  final Counter nodesNotStarted;
  final Counter conflicts;

  WorkflowMetrics(MeterRegistry meters) {
    this.meters = meters;
    this.nodeTriggers =
        Counter.builder("kairos.workflow.node.triggers")
            .description("workflow node triggers submitted and accepted")
            .register(meters);
    this.duplicates =
        Counter.builder("kairos.workflow.node.duplicates")
            .description("node trigger submissions suppressed as duplicates (replays)")
            .register(meters);
    this.nodesNotStarted =
        Counter.builder("kairos.workflow.node.not.started")
            .description("nodes whose job was missing or disabled: recorded FAILED")
            .register(meters);
    this.conflicts =
        Counter.builder("kairos.workflow.run.write.conflicts")
            .description("run updates retried because another writer moved the run first")
            .register(meters);
  }

  void runStarted(String trigger) {
    Counter.builder("kairos.workflow.runs.started")
        .description("workflow runs started, by trigger (API, SCHEDULE)")
        .tag("trigger", trigger)
        .register(meters)
        .increment();
  }

  void runEnded(RunState state) {
    Counter.builder("kairos.workflow.runs.ended")
        .description("workflow runs ended, by state")
        .tag("state", state.name())
        .register(meters)
        .increment();
  }
}
