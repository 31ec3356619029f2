package dev.kairos.node.api.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.node.lifecycle.guard.CancelOutcome;

/**
 * The answer to an accepted cancel.
 *
 * @param outcome {@code CANCELLED} (it had not started and never will) or {@code CANCEL_REQUESTED}
 *     (it is running; its executor interrupts the handler and records CANCELLED)
 * @param previousState the trigger's state when the cancel arrived
 * @param executor the executor running it; absent when it had not started
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record CancelView(String triggerId, String outcome, String previousState, String executor) {

  static CancelView of(String triggerId, CancelOutcome outcome) {
    String executor =
        outcome.executor() == null || outcome.executor().isEmpty() ? null : outcome.executor();
    return new CancelView(triggerId, outcome.kind().name(), outcome.stateFound(), executor);
  }
}
