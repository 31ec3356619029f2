package dev.kairos.workflow;

import java.util.List;

/**
 * A named DAG of jobs of one app, started by its schedule or through the API.
 *
 * @param id same characters as a job id
 * @param app every node's job belongs to it, and its permissions are the workflow's
 * @param schedule when runs start by themselves; null: only through the API
 * @param enabled a disabled workflow starts no scheduled run (API runs are still accepted)
 * @param version raised by every write; updates name the version they apply to
 */
public record WorkflowDefinition(
    String id,
    String app,
    String description,
    WorkflowSchedule schedule,
    boolean enabled,
    long version,
    List<WorkflowNode> nodes,
    List<WorkflowEdge> edges) {

  public WorkflowDefinition {
    description = description == null ? "" : description;
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    edges = edges == null ? List.of() : List.copyOf(edges);
  }

  public WorkflowDefinition withVersion(long v) {
    return new WorkflowDefinition(id, app, description, schedule, enabled, v, nodes, edges);
  }

  /** The same definition at version 0: what an import compares. */
  public boolean sameAs(WorkflowDefinition other) {
    return other != null && withVersion(0).equals(other.withVersion(0));
  }
}
