package dev.kairos.backfill;

/** Where a backfill is. Only RUNNING is driven; the others are final. */
public enum BackfillState {
  /** Fires are being submitted or are still running. */
  RUNNING,
  /** Every fire of the range ended in SUCCESS. */
  SUCCEEDED,
  /** Every fire ended, at least one not in SUCCESS (after its retries), or the job was deleted. */
  FAILED,
  /**
   * Cancelled by an operator: no new fire is submitted; fires already submitted run to their end.
   */
  CANCELLED;

  public boolean isFinal() {
    return this != RUNNING;
  }
}
