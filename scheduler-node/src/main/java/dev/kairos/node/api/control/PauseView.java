package dev.kairos.node.api.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.coordinator.pause.PauseState;

/**
 * Whether scheduling is paused cluster-wide; the same fields as the {@code scheduling} health
 * component.
 *
 * @param pausedSinceMs cluster time the pause began; absent when not paused
 * @param pausedBy the token name that paused it; absent when not paused
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record PauseView(boolean paused, Long pausedSinceMs, String pausedBy) {

  static PauseView of(PauseState state) {
    return state.paused()
        ? new PauseView(true, state.sinceMs(), state.by())
        : new PauseView(false, null, null);
  }
}
