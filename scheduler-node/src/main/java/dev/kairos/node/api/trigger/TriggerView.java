package dev.kairos.node.api.trigger;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.protocol.record.TriggerFields;
import dev.kairos.sync.history.TriggerRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One trigger: its state, where it ran, its timings, the result message, and the states it went
 * through (derived from the timestamps each transition writes).
 *
 * @param source where the record was read: {@code redis} (recent triggers, live state) or {@code
 *     postgresql} (history, possibly behind by the sync lag)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TriggerView(
    String triggerId,
    String jobId,
    Long fireMs,
    String state,
    Integer attempt,
    String node,
    Long term,
    String executor,
    String slot,
    String message,
    Long claimedMs,
    Long dispatchedMs,
    Long startedMs,
    Long endedMs,
    Long durationMs,
    List<Transition> history,
    String source) {

  /** The trigger entered {@code state} at {@code atMs}. */
  public record Transition(String state, long atMs) {}

  static TriggerView fromRedis(Map<String, String> hash) {
    return of(
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
        new long[] {
          orZero(hash.get(TriggerFields.CLAIMED_MS)),
          orZero(hash.get(TriggerFields.DISPATCHED_MS)),
          orZero(hash.get(TriggerFields.STARTED_MS)),
          orZero(hash.get(TriggerFields.ENDED_MS))
        },
        "redis");
  }

  /**
   * A trigger known only by its tombstone: it ended in {@code state} (SUCCESS) and its record was
   * compacted once PostgreSQL had its history, which is not answering now.
   */
  static TriggerView tombstone(String triggerId, String jobId, long fireMs, String state) {
    return new TriggerView(
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
        null,
        null,
        List.of(),
        "redis-tombstone");
  }

  static TriggerView fromPostgres(TriggerRecord r) {
    return of(
        r.triggerId(),
        r.jobId(),
        r.fireMs(),
        r.state(),
        r.attempt(),
        r.node(),
        r.term(),
        r.executor(),
        r.slot(),
        r.message(),
        new long[] {
          orZero(r.claimedMs()),
          orZero(r.dispatchedMs()),
          orZero(r.startedMs()),
          orZero(r.endedMs())
        },
        "postgresql");
  }

  private static TriggerView of(
      String id,
      String jobId,
      Long fireMs,
      String state,
      Integer attempt,
      String node,
      Long term,
      String executor,
      String slot,
      String message,
      long[] times,
      String source) {
    List<Transition> history = new ArrayList<>();
    String[] phases = {"CLAIMED", "DISPATCHED", "RUNNING"};
    for (int i = 0; i < phases.length; i++) {
      if (times[i] > 0) {
        history.add(new Transition(phases[i], times[i]));
      }
    }
    if (times[3] > 0 && state != null) {
      history.add(new Transition(state, times[3]));
    }
    Long duration = times[2] > 0 && times[3] >= times[2] ? times[3] - times[2] : null;
    return new TriggerView(
        id,
        jobId,
        fireMs,
        state,
        attempt,
        node,
        term,
        executor,
        emptyToNull(slot),
        emptyToNull(message),
        positive(times[0]),
        positive(times[1]),
        positive(times[2]),
        positive(times[3]),
        duration,
        history,
        source);
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

  private static long orZero(String text) {
    Long n = number(text);
    return n == null ? 0 : n;
  }

  private static long orZero(Long n) {
    return n == null ? 0 : n;
  }

  private static Long positive(long n) {
    return n > 0 ? n : null;
  }

  private static String emptyToNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
