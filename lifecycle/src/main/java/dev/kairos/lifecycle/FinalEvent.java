package dev.kairos.lifecycle;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.TriggerFields;
import dev.kairos.core.store.TriggerEvents;
import java.util.Map;
import java.util.Optional;

/**
 * A trigger reaching a final state, as read from a shard's events stream.
 *
 * @param endedMs the event's end time, when it carries one
 */
record FinalEvent(TriggerId triggerId, TriggerState state, Optional<Long> endedMs) {

  /**
   * The final-state event in a stream entry, or empty for everything the lifecycle ignores: job
   * events, claims, moves, non-final updates, and late results (a result reported after the trigger
   * was already final is recorded beside it and changes nothing).
   */
  static Optional<FinalEvent> parse(Map<String, String> body) {
    if (body == null || !TriggerEvents.TRIGGER_UPDATED.equals(body.get("type"))) {
      return Optional.empty();
    }
    if ("1".equals(body.get("late"))) {
      return Optional.empty();
    }
    String id = body.get("triggerId");
    String state = body.get(TriggerFields.STATE);
    if (id == null || state == null) {
      return Optional.empty();
    }
    try {
      TriggerState parsed = TriggerState.valueOf(state);
      if (!parsed.isTerminal()) {
        return Optional.empty();
      }
      String ended = body.get(TriggerFields.ENDED_MS);
      return Optional.of(
          new FinalEvent(
              new TriggerId(id),
              parsed,
              ended == null || ended.isEmpty()
                  ? Optional.empty()
                  : Optional.of(Long.parseLong(ended))));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // malformed: nothing a reaction could be based on
    }
  }
}
