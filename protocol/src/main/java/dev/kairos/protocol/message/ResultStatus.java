package dev.kairos.protocol.message;

/** What an executor reports about one delivery of a trigger. */
public enum ResultStatus {
  /** The handler ran and returned normally. */
  SUCCESS,
  /** The handler ran and threw, or reported failure. */
  FAIL,
  /** The handler ran past the job's timeout and was interrupted. */
  TIMEOUT,
  /** Interrupted because an operator cancelled the trigger. */
  CANCELLED,
  /** Dropped by the block strategy (DISCARD_LATER) or replaced by a newer run (COVER_EARLY). */
  DISCARDED,
  /** This copy found the trigger already started or final; nothing ran. A report, not a state. */
  DUPLICATE,
  /** This copy arrived more than the dedup window after the fire time; nothing ran. */
  EXPIRED
}
