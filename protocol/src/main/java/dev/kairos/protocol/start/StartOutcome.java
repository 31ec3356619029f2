package dev.kairos.protocol.start;

/**
 * The answer of a start claim.
 *
 * @param kind what the executor must do: run the handler only on {@link Kind#STARTED}
 * @param startedMs Redis time of the claim (the trigger's startedMs when STARTED)
 * @param stateFound the trigger's state before the claim, empty when the record was missing
 * @param executorFound the executor recorded on the trigger before the claim, empty when none
 */
public record StartOutcome(Kind kind, long startedMs, String stateFound, String executorFound) {

  public enum Kind {
    /** This executor owns the run: the trigger is RUNNING with its id. */
    STARTED,
    /** The trigger already started or ended; report DUPLICATE and do not run. */
    DUPLICATE,
    /** The fire time is more than D in the past and it never started; report EXPIRED. */
    EXPIRED,
    /**
     * The trigger's job was deleted, disabled or rescheduled after the node dispatched it (a
     * pre-dispatch lead before its fire time): the claim ended it DROPPED_STALE; do not run.
     */
    DROPPED
  }

  public boolean started() {
    return kind == Kind.STARTED;
  }
}
