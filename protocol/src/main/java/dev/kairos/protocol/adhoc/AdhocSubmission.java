package dev.kairos.protocol.adhoc;

import dev.kairos.core.model.TriggerId;

/**
 * What {@link AdhocTriggers#submit(AdhocRequest)} did.
 *
 * @param triggerId the submitted trigger id
 * @param outcome ACCEPTED (written), DUPLICATE (that id is already waiting or was claimed: nothing
 *     written, which makes submission idempotent), JOB_NOT_FOUND or JOB_DISABLED (nothing written)
 */
public record AdhocSubmission(TriggerId triggerId, Outcome outcome) {

  public enum Outcome {
    ACCEPTED,
    DUPLICATE,
    JOB_NOT_FOUND,
    JOB_DISABLED
  }

  /** Whether the trigger is (now or already) on its way: accepted or a duplicate. */
  public boolean pending() {
    return outcome == Outcome.ACCEPTED || outcome == Outcome.DUPLICATE;
  }
}
