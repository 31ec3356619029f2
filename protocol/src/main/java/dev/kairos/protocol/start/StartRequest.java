package dev.kairos.protocol.start;

import dev.kairos.protocol.message.TriggerMessage;

/**
 * What a start claim needs to know.
 *
 * @param triggerId the trigger to start
 * @param jobId its job (selects the shard)
 * @param scheduledFireMs the fire time the dedup window is counted from
 * @param attempt the attempt number, recorded on the trigger
 * @param timeoutMs the handler timeout, 0 for none (keeps a RUNNING record alive that long past D)
 * @param executorId the claiming executor instance
 * @param slot the slot it consumes from
 * @param sentMs when the node sent the message (the record's dispatch time if the node's ack of it
 *     has not been recorded by the start)
 */
public record StartRequest(
    String triggerId,
    String jobId,
    long scheduledFireMs,
    int attempt,
    long timeoutMs,
    String executorId,
    int slot,
    long sentMs) {

  public static StartRequest of(TriggerMessage message, String executorId, int slot) {
    return new StartRequest(
        message.triggerId(),
        message.jobId(),
        message.scheduledFireMs(),
        message.attempt(),
        message.timeoutMs(),
        executorId,
        slot,
        message.dispatchedMs());
  }
}
