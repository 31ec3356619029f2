package dev.kairos.workflow;

/** Where one node of a workflow run is. */
public enum NodeState {
  /** Not started: some upstream node has not ended yet. */
  PENDING,
  /** Its trigger was submitted (its id is in the node's trigger list); it has not ended. */
  TRIGGERED,
  SUCCESS,
  /** Its trigger chain ended in any other final state, after its last retry. */
  FAILED,
  /**
   * It will never run: an incoming edge's condition can no longer hold, or the run was cancelled.
   */
  SKIPPED;

  public boolean isEnded() {
    return this == SUCCESS || this == FAILED || this == SKIPPED;
  }
}
