package dev.kairos.coordinator.pause;

/**
 * Whether scheduling is paused cluster-wide.
 *
 * @param paused whether the leader claims nothing
 * @param sinceMs cluster time the pause began, 0 when not paused
 * @param by who paused it ("" when not paused)
 */
public record PauseState(boolean paused, long sinceMs, String by) {

  public static final PauseState RUNNING = new PauseState(false, 0, "");

  public PauseState {
    by = by == null ? "" : by;
  }
}
