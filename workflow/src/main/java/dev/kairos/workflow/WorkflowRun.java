package dev.kairos.workflow;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run of a workflow: the definition as it was when the run started (so a later change of the
 * workflow never changes a run under way), its state and each node's.
 *
 * @param id {@code <workflowId>@<fireMs>} (scheduled) or {@code <workflowId>@<ms>m<nonce>} (API)
 * @param fireMs the scheduled fire time, or the API request time; every node's trigger id has it
 * @param trigger {@code SCHEDULE} or {@code API}
 * @param endedMs 0 while RUNNING (and while a cancelled run still has triggered nodes)
 */
public record WorkflowRun(
    String id,
    String workflowId,
    String app,
    long fireMs,
    String trigger,
    RunState state,
    long startedMs,
    long endedMs,
    WorkflowDefinition definition,
    Map<String, NodeRun> nodes) {

  public WorkflowRun {
    nodes = new LinkedHashMap<>(nodes);
  }

  /** A run of {@code definition} with every node PENDING. */
  public static WorkflowRun of(
      String id, WorkflowDefinition definition, long fireMs, String trigger, long nowMs) {
    Map<String, NodeRun> nodes = new LinkedHashMap<>();
    for (WorkflowNode n : definition.nodes()) {
      nodes.put(n.name(), NodeRun.PENDING);
    }
    return new WorkflowRun(
        id,
        definition.id(),
        definition.app(),
        fireMs,
        trigger,
        RunState.RUNNING,
        nowMs,
        0,
        definition,
        nodes);
  }

  WorkflowRun with(RunState s, long ended, Map<String, NodeRun> n) {
    return new WorkflowRun(
        id, workflowId, app, fireMs, trigger, s, startedMs, ended, definition, n);
  }

  /** The scheduled run's id: deterministic, so a leader re-creating it finds it. */
  public static String scheduledId(String workflowId, long fireMs) {
    return workflowId + "@" + fireMs;
  }

  /** An API run's id. */
  public static String apiId(String workflowId, long requestMs, String nonce) {
    return workflowId + "@" + requestMs + "m" + nonce;
  }

  /** The workflow of a run id. */
  public static String workflowOf(String runId) {
    int at = runId.indexOf('@');
    return at < 0 ? runId : runId.substring(0, at);
  }
}
