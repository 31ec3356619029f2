package dev.kairos.lifecycle;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import java.util.Map;

/**
 * Told the final end of a trigger chain: a trigger reached a final state and the lifecycle policy
 * decided that no retry follows (or the job is gone). Called by the lifecycle worker on its thread,
 * synchronously, before the stream entry is acknowledged: a listener that throws leaves the entry
 * unacknowledged, so it is told again (possibly on another node) and must be idempotent.
 *
 * <p>Only ids {@link #accepts} passes reach {@link #chainEnded}; the test runs for every final
 * event, so it must be a cheap look at the id (no Redis call).
 */
public interface ChainEndListener {

  /** A listener that wants nothing: the default of a worker without one. */
  ChainEndListener NONE =
      new ChainEndListener() {
        @Override
        public boolean accepts(TriggerId triggerId) {
          return false;
        }

        @Override
        public void chainEnded(
            TriggerId triggerId, TriggerState state, Map<String, String> record) {}
      };

  /** Whether this listener wants to hear of {@code triggerId}'s chain end. */
  boolean accepts(TriggerId triggerId);

  /**
   * @param triggerId the last attempt of the chain
   * @param state its final state
   * @param record the trigger record's fields as the end event carried them (the result message
   *     under {@code message}); empty when neither the event nor Redis had them
   */
  void chainEnded(TriggerId triggerId, TriggerState state, Map<String, String> record);
}
