package dev.kairos.node.api.workflow;

import dev.kairos.workflow.WorkflowDefinition;
import dev.kairos.workflow.WorkflowEdge;
import dev.kairos.workflow.WorkflowNode;
import dev.kairos.workflow.WorkflowSchedule;
import java.util.List;

/**
 * A workflow as written through the API; {@code enabled} defaults to true, {@code version} names
 * the version an update applies to (or send {@code If-Match}).
 */
record WorkflowRequest(
    String id,
    String app,
    String description,
    WorkflowSchedule schedule,
    Boolean enabled,
    Long version,
    List<WorkflowNode> nodes,
    List<WorkflowEdge> edges) {

  WorkflowDefinition toDefinition(String workflowId) {
    return new WorkflowDefinition(
        workflowId, app, description, schedule, enabled == null || enabled, 0, nodes, edges);
  }
}
