package dev.kairos.node.api.trigger;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.kairos.protocol.record.TriggerFields;
import dev.kairos.sync.history.TriggerRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One trigger: its record (state, where it ran, its timings, the result message), how long it ran,
 * and the states it went through (derived from the timestamps each transition writes). In JSON the
 * record's fields stand at the top level beside {@code durationMs}, {@code history} and {@code
 * source}; absent values are left out ({@link TriggerRecordJson}).
 *
 * @param trigger the record, normalized: no empty strings, no zero timestamps
 * @param source where the record was read: {@code redis} (recent triggers, live state) or {@code
 *     postgresql} (history, possibly behind by the sync lag)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TriggerView(
    @JsonUnwrapped TriggerRecord trigger,
    Long durationMs,
    List<Transition> history,
    String source) {

  /** The trigger entered {@code state} at {@code atMs}. */
  public record Transition(String state, long atMs) {}

  static TriggerView fromRedis(Map<String, String> hash) {
    return of(
        new TriggerRecord(
            hash.get(TriggerFields.ID),
            hash.get(TriggerFields.JOB_ID),
            number(hash.get(TriggerFields.FIRE_MS)),
            hash.get(TriggerFields.STATE),
            integer(hash.get(TriggerFields.ATTEMPT)),
            hash.get(TriggerFields.NODE),
            number(hash.get(TriggerFields.TERM)),
            hash.get(TriggerFields.EXECUTOR),
            hash.get(TriggerFields.SLOT),
            hash.get(TriggerFields.MESSAGE),
            number(hash.get(TriggerFields.CLAIMED_MS)),
            number(hash.get(TriggerFields.DISPATCHED_MS)),
            number(hash.get(TriggerFields.STARTED_MS)),
            number(hash.get(TriggerFields.ENDED_MS))),
        "redis");
  }

  /**
   * A trigger known only by its tombstone: it ended in {@code state} (SUCCESS) and its record was
   * compacted once PostgreSQL had its history, which is not answering now.
   */
  static TriggerView tombstone(String triggerId, String jobId, long fireMs, String state) {
    return new TriggerView(
        new TriggerRecord(
            triggerId,
            jobId,
            fireMs,
            state,
            null,
            null,
            null,
            null,
            null,
            "ended; its details are in the history (PostgreSQL), which did not answer",
            null,
            null,
            null,
            null),
        null,
        List.of(),
        "redis-tombstone");
  }

  static TriggerView fromPostgres(TriggerRecord r) {
    return of(r, "postgresql");
  }

  private static TriggerView of(TriggerRecord r, String source) {
    Long claimed = positive(r.claimedMs());
    Long dispatched = positive(r.dispatchedMs());
    Long started = positive(r.startedMs());
    Long ended = positive(r.endedMs());
    List<Transition> history = new ArrayList<>();
    if (claimed != null) {
      history.add(new Transition("CLAIMED", claimed));
    }
    if (dispatched != null) {
      history.add(new Transition("DISPATCHED", dispatched));
    }
    if (started != null) {
      history.add(new Transition("RUNNING", started));
    }
    if (ended != null && r.state() != null) {
      history.add(new Transition(r.state(), ended));
    }
    Long duration = started != null && ended != null && ended >= started ? ended - started : null;
    TriggerRecord normalized =
        new TriggerRecord(
            r.triggerId(),
            r.jobId(),
            r.fireMs(),
            r.state(),
            r.attempt(),
            r.node(),
            r.term(),
            r.executor(),
            emptyToNull(r.slot()),
            emptyToNull(r.message()),
            claimed,
            dispatched,
            started,
            ended);
    return new TriggerView(normalized, duration, history, source);
  }

  private static Long number(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Integer integer(String text) {
    Long n = number(text);
    return n == null ? null : n.intValue();
  }

  private static Long positive(Long n) {
    return n != null && n > 0 ? n : null;
  }

  private static String emptyToNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
