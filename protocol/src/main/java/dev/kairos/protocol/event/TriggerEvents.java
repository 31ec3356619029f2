package dev.kairos.protocol.event;

/**
 * The trigger events that scripts append to a shard's stream ({@code kairos:{s}:events}); the
 * scripts that write them are the leader's claim, the node's wheel scripts and the executor's start
 * and completion claims. Every event carries {@code type}, {@code triggerId} and {@code jobId};
 * persistence-sync applies them by state rank, so a replayed or reordered event never moves a
 * trigger backwards.
 *
 * <ul>
 *   <li>{@code TRIGGER_CLAIMED}: state, fireMs, node, term, scheduleVersion, attempt, ms.
 *   <li>{@code TRIGGER_UPDATED}: state plus whatever the transition set (dispatchedMs and slot;
 *       executor and startedMs; endedMs, message and {@code late} for a result after a final
 *       state).
 *   <li>{@code TRIGGER_MOVED}: a dead node's entry moved to another node by the leader.
 *   <li>{@code TRIGGER_LOG}: handler log lines of a running trigger ({@code
 *       append_trigger_log.lua}, sent by the executor): fireMs, and one field {@code L<seq>} per
 *       line holding {@code LogLine.encodeBody()}. It changes no state; persistence-sync copies the
 *       lines.
 * </ul>
 */
public final class TriggerEvents {

  public static final String TRIGGER_CLAIMED = "TRIGGER_CLAIMED";
  public static final String TRIGGER_UPDATED = "TRIGGER_UPDATED";
  public static final String TRIGGER_MOVED = "TRIGGER_MOVED";
  public static final String TRIGGER_LOG = "TRIGGER_LOG";

  /** Prefix of a TRIGGER_LOG event's line fields: {@code L<seq>}. */
  public static final String LOG_LINE_FIELD = "L";

  private TriggerEvents() {}
}
