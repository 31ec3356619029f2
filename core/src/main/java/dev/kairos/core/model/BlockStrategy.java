package dev.kairos.core.model;

/** What an executor does with a trigger of a job whose previous run is still going. */
public enum BlockStrategy {
  /** Queue behind the running one. */
  SERIAL_EXECUTION,
  /** Drop the newcomer (reported DISCARDED). */
  DISCARD_LATER,
  /** Interrupt the running one and start the newcomer. */
  COVER_EARLY
}
