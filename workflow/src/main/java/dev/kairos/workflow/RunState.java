package dev.kairos.workflow;

/** Where a workflow run is. */
public enum RunState {
  RUNNING,
  /** Every node ended, and every failed node's failure was handled by a FAILURE or ALWAYS edge. */
  SUCCEEDED,
  /** Every node ended, and some node failed with no FAILURE or ALWAYS edge leaving it. */
  FAILED,
  /** Cancelled: no node starts any more; nodes already triggered run to their end. */
  CANCELLED;

  public boolean isEnded() {
    return this != RUNNING;
  }
}
