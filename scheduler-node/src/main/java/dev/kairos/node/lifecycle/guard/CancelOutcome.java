package dev.kairos.node.lifecycle.guard;

/**
 * What a cancel did.
 *
 * @param kind the outcome
 * @param stateFound the trigger's state when the cancel arrived ("" when there was no record)
 * @param executor the executor running it (CANCEL_REQUESTED) or that ran it ("" when none)
 */
public record CancelOutcome(Kind kind, String stateFound, String executor) {

  public enum Kind {
    /** It had not started: it is CANCELLED now and will never start. */
    CANCELLED,
    /** It is running: its executor was asked to interrupt it and record CANCELLED. */
    CANCEL_REQUESTED,
    /** It had already ended; nothing changed. */
    ALREADY_FINAL,
    /** No such trigger (never existed, or its record expired after the dedup window). */
    NOT_FOUND
  }
}
