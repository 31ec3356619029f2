package dev.kairos.core.model;

/** What happens to a fire that is older than the job's misfire threshold when it is found. */
public enum MisfireStrategy {
  /** Skip the missed fires; the job continues at its next fire time after now. */
  DO_NOTHING,
  /** Fire once now for all the missed fires, then continue with the schedule. */
  FIRE_ONCE_NOW
}
