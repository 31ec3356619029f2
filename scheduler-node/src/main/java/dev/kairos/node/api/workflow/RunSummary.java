package dev.kairos.node.api.workflow;

import dev.kairos.workflow.RunState;
import dev.kairos.workflow.WorkflowRun;

/** One line of a workflow's run list. */
record RunSummary(
    String id, RunState state, String trigger, long fireMs, long startedMs, long endedMs) {

  static RunSummary of(WorkflowRun r) {
    return new RunSummary(r.id(), r.state(), r.trigger(), r.fireMs(), r.startedMs(), r.endedMs());
  }
}
