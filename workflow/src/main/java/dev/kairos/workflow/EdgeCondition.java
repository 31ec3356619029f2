package dev.kairos.workflow;

/** When an edge lets its downstream node run, judged on its upstream node's end. */
public enum EdgeCondition {
  /** The upstream node succeeded (the default). */
  SUCCESS,
  /** The upstream node failed (after its last retry). */
  FAILURE,
  /** The upstream node ran and ended, whichever way. */
  ALWAYS;

  /**
   * Whether the edge holds for an upstream node that ended {@code upstream}; false for a SKIPPED
   * upstream: a node that never ran satisfies no edge.
   */
  boolean holds(NodeState upstream) {
    return switch (this) {
      case SUCCESS -> upstream == NodeState.SUCCESS;
      case FAILURE -> upstream == NodeState.FAILED;
      case ALWAYS -> upstream == NodeState.SUCCESS || upstream == NodeState.FAILED;
    };
  }
}
