package dev.kairos.protocol.event;

/**
 * The trigger events that scripts append to a shard's stream ({@code kairos:{s}:events}). Every
 * event carries {@code type}, {@code triggerId}, {@code jobId} and {@code ms} (when it was
 * written). A trigger's history is one event, written when it reaches a final state; a trigger in
 * progress is read from its Redis record (docs/protocol.md "Stream events").
 *
 * <ul>
 *   <li>{@code TRIGGER_ENDED}: the trigger reached a final state. It carries every field of the
 *       record at that moment (state, fireMs, attempt, kind, parentTriggerId, depth, params,
 *       scheduleVersion, node, term, slot, executor, claimedMs, dispatchedMs, startedMs, endedMs,
 *       message, redispatches, cancelRequested, the broadcast fields parent/shardIndex/shardTotal),
 *       under the record's own field names ({@code id} as {@code triggerId}), and {@code quiet=1}
 *       on a SUCCESS that needs no lifecycle reaction (no child jobs, not FIXED_DELAY).
 *   <li>{@code TRIGGER_LATE}: a result that arrived after the trigger was already final (kept
 *       beside it as {@code lateResult}): fireMs, state, executor, endedMs and message of the late
 *       result. It changes nothing else.
 *   <li>{@code TRIGGER_LOG}: handler log lines of a running trigger ({@code
 *       append_trigger_log.lua}): fireMs, and one field {@code L<seq>} per line holding {@code
 *       LogLine.encodeBody()}. It changes no state; persistence-sync copies the lines.
 * </ul>
 *
 * <p>Streams written by an older version may still hold {@code TRIGGER_CLAIMED}, {@code
 * TRIGGER_UPDATED} (one per transition, {@code late=1} for a late result) and {@code TRIGGER_MOVED}
 * entries; readers accept them.
 */
public final class TriggerEvents {

  public static final String TRIGGER_ENDED = "TRIGGER_ENDED";
  public static final String TRIGGER_LATE = "TRIGGER_LATE";
  public static final String TRIGGER_LOG = "TRIGGER_LOG";

  /** Written by versions before one event per trigger; still read. */
  public static final String TRIGGER_CLAIMED = "TRIGGER_CLAIMED";

  /** Written by versions before one event per trigger; still read. */
  public static final String TRIGGER_UPDATED = "TRIGGER_UPDATED";

  /** Written by versions before one event per trigger; still read. */
  public static final String TRIGGER_MOVED = "TRIGGER_MOVED";

  /** Prefix of a TRIGGER_LOG event's line fields: {@code L<seq>}. */
  public static final String LOG_LINE_FIELD = "L";

  private TriggerEvents() {}
}
