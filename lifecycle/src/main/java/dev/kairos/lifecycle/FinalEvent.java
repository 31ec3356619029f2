package dev.kairos.lifecycle;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.protocol.event.TriggerEvents;
import dev.kairos.protocol.record.TriggerFields;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A trigger reaching a final state, as read from a shard's events stream.
 *
 * @param endedMs the event's end time, when it carries one
 * @param quietRecord when the event says the end needs no reaction (complete_trigger's {@code
 *     quiet=1}: a SUCCESS of a job with no child jobs that is not FIXED_DELAY), the record fields
 *     it carries for the metrics ({@code fireMs}, {@code claimedMs}, {@code startedMs}); else
 *     empty, and the record and the job are read
 */
record FinalEvent(
    TriggerId triggerId,
    TriggerState state,
    Optional<Long> endedMs,
    Optional<Map<String, String>> quietRecord) {

  FinalEvent(TriggerId triggerId, TriggerState state, Optional<Long> endedMs) {
    this(triggerId, state, endedMs, Optional.empty());
  }

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
      Optional<Map<String, String>> quiet = Optional.empty();
      if (parsed == TriggerState.SUCCESS && "1".equals(body.get("quiet"))) {
        Map<String, String> record = new HashMap<>(4);
        for (String field :
            List.of(TriggerFields.FIRE_MS, TriggerFields.CLAIMED_MS, TriggerFields.STARTED_MS)) {
          String value = body.get(field);
          if (value != null && !value.isEmpty()) {
            record.put(field, value);
          }
        }
        quiet = Optional.of(Map.copyOf(record));
      }
      return Optional.of(
          new FinalEvent(
              new TriggerId(id),
              parsed,
              ended == null || ended.isEmpty()
                  ? Optional.empty()
                  : Optional.of(Long.parseLong(ended)),
              quiet));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // malformed: nothing a reaction could be based on
    }
  }
}
