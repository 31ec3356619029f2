package dev.kairos.protocol.start;

/**
 * The answer of {@link TriggerRecords#complete}.
 *
 * @param kind what happened to the record
 * @param endedMs Redis time of the call
 * @param stateFound the trigger's state before the call, empty when the record was missing
 */
public record CompletionOutcome(Kind kind, long endedMs, String stateFound) {

  public enum Kind {
    /** The final state was recorded. */
    COMPLETED,
    /** The record was gone (expired or lost in a failover) and was written again, final. */
    RECREATED,
    /** The same final state was already recorded by this executor (a retried call). */
    ALREADY,
    /**
     * The trigger was already final (e.g. LOST); the result went to field lateResult only, or was
     * already there (a repeated completion of the same late result changes nothing).
     */
    LATE,
    /** Another executor owns the trigger; nothing changed. */
    NOT_OWNER,
    /** The trigger never started, and only DISCARDED may end an unstarted trigger. */
    NOT_STARTED
  }

  /** Whether the trigger's state is now the requested final state. */
  public boolean recorded() {
    return kind == Kind.COMPLETED || kind == Kind.RECREATED || kind == Kind.ALREADY;
  }
}
