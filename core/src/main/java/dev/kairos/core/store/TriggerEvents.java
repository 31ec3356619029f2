package dev.kairos.core.store;

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
 * </ul>
 */
public final class TriggerEvents {

  public static final String TRIGGER_CLAIMED = "TRIGGER_CLAIMED";
  public static final String TRIGGER_UPDATED = "TRIGGER_UPDATED";
  public static final String TRIGGER_MOVED = "TRIGGER_MOVED";

  private TriggerEvents() {}
}
