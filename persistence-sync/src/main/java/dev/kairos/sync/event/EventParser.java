package dev.kairos.sync.event;

import dev.kairos.core.log.LogLine;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.JobFields;
import dev.kairos.protocol.event.TriggerEvents;
import dev.kairos.protocol.record.TriggerFields;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the field/value pairs that the Lua scripts append into {@link SyncEvent}s. A trigger's
 * history is its one {@code TRIGGER_ENDED} event, which carries the record's every field; a late
 * result is a {@code TRIGGER_LATE}. Streams written by older versions may still hold one event per
 * transition ({@code TRIGGER_CLAIMED}, {@code TRIGGER_UPDATED}, {@code TRIGGER_MOVED}), whose own
 * time ({@code ms}, or {@code ts} from the executors' scripts) stands for the transition: CLAIMED →
 * claimedMs, DISPATCHED → dispatchedMs, RUNNING → startedMs, a final state → endedMs.
 */
public final class EventParser {

  /** Rank of an event that does not carry a state (a move): lower than any real state. */
  public static final int NO_STATE_RANK = -1;

  public SyncEvent parse(int shard, String rawId, Map<String, String> body) {
    StreamId id = StreamId.parse(rawId);
    String type = body == null ? null : body.get("type");
    if (type == null) {
      return new SyncEvent.Unknown(shard, id, null, "no type field (entry deleted or malformed)");
    }
    try {
      return switch (type) {
        case "JOB_UPSERTED" -> jobUpserted(shard, id, body);
        case "JOB_DELETED" ->
            new SyncEvent.JobDeleted(
                shard,
                id,
                required(body, JobFields.ID),
                Long.parseLong(required(body, JobFields.VERSION)),
                Long.parseLong(required(body, JobFields.SCHEDULE_VERSION)),
                eventTime(body, id));
        case TriggerEvents.TRIGGER_ENDED -> ended(shard, id, body);
        case TriggerEvents.TRIGGER_LATE -> late(shard, id, body);
        case TriggerEvents.TRIGGER_CLAIMED,
            TriggerEvents.TRIGGER_UPDATED,
            TriggerEvents.TRIGGER_MOVED ->
            trigger(shard, id, body);
        case TriggerEvents.TRIGGER_LOG -> triggerLog(shard, id, body);
        default -> new SyncEvent.Unknown(shard, id, type, "unknown event type");
      };
    } catch (RuntimeException e) {
      return new SyncEvent.Unknown(shard, id, type, e.toString());
    }
  }

  private static SyncEvent jobUpserted(int shard, StreamId id, Map<String, String> body) {
    Map<String, String> hash = new LinkedHashMap<>(body);
    hash.remove("type");
    hash.remove("ms");
    required(hash, JobFields.ID);
    Long.parseLong(required(hash, JobFields.VERSION));
    return new SyncEvent.JobUpserted(shard, id, Map.copyOf(hash));
  }

  private static SyncEvent triggerLog(int shard, StreamId id, Map<String, String> body) {
    List<LogLine> lines = new ArrayList<>();
    for (Map.Entry<String, String> field : body.entrySet()) {
      String name = field.getKey();
      if (name.startsWith(TriggerEvents.LOG_LINE_FIELD) && name.length() > 1) {
        lines.add(LogLine.decodeBody(Long.parseLong(name.substring(1)), field.getValue()));
      }
    }
    lines.sort(Comparator.comparingLong(LogLine::seq));
    return new SyncEvent.TriggerLog(
        shard,
        id,
        required(body, "triggerId"),
        required(body, TriggerFields.JOB_ID),
        Long.parseLong(required(body, "fireMs")),
        List.copyOf(lines));
  }

  /** TRIGGER_ENDED: the whole record of a trigger that reached a final state. */
  private static SyncEvent ended(int shard, StreamId id, Map<String, String> body) {
    String state = required(body, TriggerFields.STATE);
    long at = eventTime(body, id);
    String attempt = body.get(TriggerFields.ATTEMPT);
    return new SyncEvent.TriggerChange(
        shard,
        id,
        required(body, "triggerId"),
        required(body, TriggerFields.JOB_ID),
        state,
        TriggerState.valueOf(state).rank(),
        number(body, TriggerFields.FIRE_MS, null),
        attempt == null || attempt.isEmpty() ? null : Integer.valueOf(attempt),
        number(body, TriggerFields.SCHEDULE_VERSION, null),
        body.get(TriggerFields.NODE),
        number(body, TriggerFields.TERM, null),
        body.get(TriggerFields.EXECUTOR),
        body.get(TriggerFields.SLOT),
        body.get(TriggerFields.MESSAGE),
        number(body, TriggerFields.CLAIMED_MS, null),
        number(body, TriggerFields.DISPATCHED_MS, null),
        number(body, TriggerFields.STARTED_MS, null),
        number(body, TriggerFields.ENDED_MS, at),
        null,
        null);
  }

  /** TRIGGER_LATE: a result after the final state, kept beside it. */
  private static SyncEvent late(int shard, StreamId id, Map<String, String> body) {
    return new SyncEvent.TriggerChange(
        shard,
        id,
        required(body, "triggerId"),
        required(body, TriggerFields.JOB_ID),
        null,
        NO_STATE_RANK,
        number(body, TriggerFields.FIRE_MS, null),
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        number(body, TriggerFields.ENDED_MS, eventTime(body, id)),
        body.get(TriggerFields.MESSAGE));
  }

  /** The per-transition events of versions before one event per trigger. */
  private static SyncEvent trigger(int shard, StreamId id, Map<String, String> body) {
    String triggerId = required(body, "triggerId");
    String jobId = required(body, TriggerFields.JOB_ID);
    boolean moved = body.get("type").equals("TRIGGER_MOVED");
    String state = moved ? null : required(body, TriggerFields.STATE);
    int rank = state == null ? NO_STATE_RANK : TriggerState.valueOf(state).rank();
    long at = eventTime(body, id);
    boolean late = "1".equals(body.get("late"));
    Long claimed = null;
    Long dispatched = null;
    Long started = null;
    Long ended = null;
    String message = body.get(TriggerFields.MESSAGE);
    Long lateEnded = null;
    String lateMessage = null;
    if (late) {
      // complete_trigger's LATE: the record keeps its final state, end time and message; the
      // late result is kept aside (as Redis keeps it in lateResult).
      lateEnded = number(body, TriggerFields.ENDED_MS, at);
      lateMessage = message;
      message = null;
    } else if (state != null) {
      switch (TriggerState.valueOf(state)) {
        case CLAIMED -> claimed = at;
        case DISPATCHED -> dispatched = at;
        case RUNNING -> started = at;
        default -> {
          ended = number(body, TriggerFields.ENDED_MS, at);
          // An end may carry earlier times its own events did not (the node records most dispatch
          // times after the start, with no event); the history keeps the first value seen.
          dispatched = number(body, TriggerFields.DISPATCHED_MS, null);
          started = number(body, TriggerFields.STARTED_MS, null);
          claimed = number(body, TriggerFields.CLAIMED_MS, null);
        }
      }
    }
    String attempt = body.get(TriggerFields.ATTEMPT);
    return new SyncEvent.TriggerChange(
        shard,
        id,
        triggerId,
        jobId,
        late ? null : state,
        late ? NO_STATE_RANK : rank,
        number(body, TriggerFields.FIRE_MS, null),
        attempt == null ? null : Integer.valueOf(attempt),
        number(body, TriggerFields.SCHEDULE_VERSION, null),
        body.get(TriggerFields.NODE),
        number(body, TriggerFields.TERM, null),
        body.get(TriggerFields.EXECUTOR),
        body.get(TriggerFields.SLOT),
        message,
        claimed,
        dispatched,
        started,
        ended,
        lateEnded,
        lateMessage);
  }

  private static long eventTime(Map<String, String> body, StreamId id) {
    Long at = number(body, "ms", null);
    if (at == null) {
      at = number(body, "ts", null);
    }
    return at == null ? id.ms() : at;
  }

  private static Long number(Map<String, String> body, String field, Long fallback) {
    String value = body.get(field);
    return value == null || value.isEmpty() ? fallback : Long.valueOf(value);
  }

  private static String required(Map<String, String> body, String field) {
    String value = body.get(field);
    if (value == null) {
      throw new IllegalArgumentException("missing field '" + field + "'");
    }
    return value;
  }
}
