package dev.kairos.protocol.message;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.TriggerId;
import java.util.Objects;

/**
 * One trigger sent by a scheduler node to the topic of the job's handler, on the queue of the
 * chosen executor slot. The message key is the trigger id ({@link #messageKey()}).
 *
 * @param version wire format version, {@link #VERSION}
 * @param triggerId the trigger id; every copy of one trigger carries the same id
 * @param jobId the job the trigger belongs to; equals {@code TriggerId.jobId()}
 * @param app executor app
 * @param handler handler name inside the app
 * @param scheduledFireMs when the trigger was due, epoch ms (for a retry: when the retry was due);
 *     the dedup window D is counted from it
 * @param attempt 1 for the first run of a fire, n + 1 for retry n
 * @param params job parameters, empty when none
 * @param shardIndex broadcast shard index, 0 when not broadcast
 * @param shardTotal broadcast shard total, 1 when not broadcast
 * @param timeoutMs handler timeout, 0 for none
 * @param blockStrategy what to do when the job is already running on the executor
 * @param term leader term the fire was claimed under
 * @param dispatchedMs when the scheduler node sent this copy, epoch ms
 */
public record TriggerMessage(
    int version,
    String triggerId,
    String jobId,
    String app,
    String handler,
    long scheduledFireMs,
    int attempt,
    String params,
    int shardIndex,
    int shardTotal,
    long timeoutMs,
    BlockStrategy blockStrategy,
    long term,
    long dispatchedMs) {

  public static final int VERSION = 1;

  public TriggerMessage {
    if (version != VERSION) {
      throw new IllegalArgumentException("unsupported trigger message version " + version);
    }
    requireText(triggerId, "triggerId");
    requireText(jobId, "jobId");
    requireText(app, "app");
    requireText(handler, "handler");
    String idJob = new TriggerId(triggerId).jobId();
    if (!idJob.equals(jobId)) {
      throw new IllegalArgumentException(
          "jobId " + jobId + " does not match trigger id " + triggerId);
    }
    requireNonNegative(scheduledFireMs, "scheduledFireMs");
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1 but was " + attempt);
    }
    params = params == null ? "" : params;
    if (shardTotal < 1 || shardIndex < 0 || shardIndex >= shardTotal) {
      throw new IllegalArgumentException(
          "shardIndex "
              + shardIndex
              + " and shardTotal "
              + shardTotal
              + " are not 0 <= index < total");
    }
    requireNonNegative(timeoutMs, "timeoutMs");
    Objects.requireNonNull(blockStrategy, "blockStrategy");
    requireNonNegative(term, "term");
    requireNonNegative(dispatchedMs, "dispatchedMs");
  }

  /** A v1 message; the version is filled in. */
  public static TriggerMessage of(
      String triggerId,
      String app,
      String handler,
      long scheduledFireMs,
      int attempt,
      String params,
      int shardIndex,
      int shardTotal,
      long timeoutMs,
      BlockStrategy blockStrategy,
      long term,
      long dispatchedMs) {
    return new TriggerMessage(
        VERSION,
        triggerId,
        new TriggerId(triggerId).jobId(),
        app,
        handler,
        scheduledFireMs,
        attempt,
        params,
        shardIndex,
        shardTotal,
        timeoutMs,
        blockStrategy,
        term,
        dispatchedMs);
  }

  /** The RocketMQ message key: the trigger id, so a trigger's copies can be found on the broker. */
  public String messageKey() {
    return triggerId;
  }

  static void requireText(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }

  static void requireNonNegative(long value, String field) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0 but was " + value);
    }
  }
}
