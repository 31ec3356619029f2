package dev.kairos.protocol.lost;

/**
 * A RUNNING trigger whose executor no longer holds a live slot lease.
 *
 * @param executor the executor the record must still name, so a trigger another executor started
 *     meanwhile is never touched
 * @param reason why it is lost, stored as the trigger's message
 */
public record LostCandidate(String triggerId, String executor, String reason) {}
