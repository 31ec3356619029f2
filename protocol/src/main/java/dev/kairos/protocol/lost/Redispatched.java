package dev.kairos.protocol.lost;

/**
 * A DISPATCHED trigger the leader may now publish again (same trigger id), with the job's current
 * dispatch fields.
 *
 * @param block the job's block strategy name ("" when unset)
 * @param timeoutMs the job's handler timeout, 0 for none
 */
public record Redispatched(
    int shard,
    String triggerId,
    String jobId,
    long fireMs,
    String app,
    String handler,
    String params,
    String block,
    long timeoutMs,
    int attempt,
    int slot) {}
