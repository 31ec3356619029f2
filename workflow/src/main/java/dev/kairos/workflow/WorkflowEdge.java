package dev.kairos.workflow;

/**
 * An edge of a workflow's DAG: {@code to} may run once {@code from} ended as {@code on} says.
 *
 * @param on when the edge holds; null reads as {@link EdgeCondition#SUCCESS}
 */
public record WorkflowEdge(String from, String to, EdgeCondition on) {

  public WorkflowEdge {
    on = on == null ? EdgeCondition.SUCCESS : on;
  }
}
