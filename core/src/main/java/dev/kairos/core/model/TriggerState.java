package dev.kairos.core.model;

/**
 * The states of a trigger. Transitions only move forward ({@link #rank()} grows); a final state is
 * never left.
 */
public enum TriggerState {
  CLAIMED(0, false),
  DISPATCHED(1, false),
  RUNNING(2, false),
  SUCCESS(3, true),
  FAIL(3, true),
  TIMEOUT(3, true),
  LOST(3, true),
  CANCELLED(3, true),
  DISCARDED(3, true),
  EXPIRED(3, true),
  NO_EXECUTOR(3, true),
  DROPPED_STALE(3, true),

  /**
   * A scheduled fire one of its job's calendars excludes: recorded by the claim instead of being
   * run. Nothing follows it (no retry, child trigger, alarm or FIXED_DELAY re-arm).
   */
  SKIPPED(3, true);

  private final int rank;
  private final boolean terminal;

  TriggerState(int rank, boolean terminal) {
    this.rank = rank;
    this.terminal = terminal;
  }

  /** Order of the state in the lifecycle: a record never moves to a lower or equal final rank. */
  public int rank() {
    return rank;
  }

  public boolean isTerminal() {
    return terminal;
  }

  /** Whether a record in this state may move to {@code next}. */
  public boolean canMoveTo(TriggerState next) {
    return !terminal && next.rank > rank;
  }
}
