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
 *     it carries for the metrics; else empty
 * @param carried the trigger record's fields as a {@code TRIGGER_ENDED} event carries them (every
 *     field the record had when it ended), so its reaction needs only the job read; empty for the
 *     per-transition events of older versions, whose reaction reads the record
 */
record FinalEvent(
    TriggerId triggerId,
    TriggerState state,
    Optional<Long> endedMs,
    Optional<Map<String, String>> quietRecord,
    Optional<Map<String, String>> carried) {

  FinalEvent(TriggerId triggerId, TriggerState state, Optional<Long> endedMs) {
    this(triggerId, state, endedMs, Optional.empty(), Optional.empty());
  }

  /**
   * The final-state event in a stream entry, or empty for everything the lifecycle ignores: job
   * events, logs, late results (a result reported after the trigger was already final is recorded
   * beside it and changes nothing), an older version's claims, moves and non-final updates, and
   * SKIPPED fires (a calendar excluded them: no retry, child, alarm, re-arm or start sample).
   */
  static Optional<FinalEvent> parse(Map<String, String> body) {
    if (body == null) {
      return Optional.empty();
    }
    boolean ended = TriggerEvents.TRIGGER_ENDED.equals(body.get("type"));
    if (!ended && !TriggerEvents.TRIGGER_UPDATED.equals(body.get("type"))) {
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
      if (!parsed.isTerminal() || parsed == TriggerState.SKIPPED) {
        return Optional.empty();
      }
      String endedAt = body.get(TriggerFields.ENDED_MS);
      Optional<Map<String, String>> carried =
          ended ? Optional.of(recordOf(body)) : Optional.empty();
      Optional<Map<String, String>> quiet = Optional.empty();
      if (parsed == TriggerState.SUCCESS && "1".equals(body.get("quiet"))) {
        quiet = Optional.of(carried.orElseGet(() -> startFields(body)));
      }
      return Optional.of(
          new FinalEvent(
              new TriggerId(id),
              parsed,
              endedAt == null || endedAt.isEmpty()
                  ? Optional.empty()
                  : Optional.of(Long.parseLong(endedAt)),
              quiet,
              carried));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // malformed: nothing a reaction could be based on
    }
  }

  /** The record as a TRIGGER_ENDED carries it, under the record's own field names. */
  private static Map<String, String> recordOf(Map<String, String> body) {
    Map<String, String> record = new HashMap<>(body);
    record.remove("type");
    record.remove("ms");
    record.remove("quiet");
    record.put(TriggerFields.ID, record.remove("triggerId"));
    return Map.copyOf(record);
  }

  /** What an older version's quiet SUCCESS event carried for the metrics. */
  private static Map<String, String> startFields(Map<String, String> body) {
    Map<String, String> record = new HashMap<>(4);
    for (String field :
        List.of(TriggerFields.FIRE_MS, TriggerFields.CLAIMED_MS, TriggerFields.STARTED_MS)) {
      String value = body.get(field);
      if (value != null && !value.isEmpty()) {
        record.put(field, value);
      }
    }
    return Map.copyOf(record);
  }
}
