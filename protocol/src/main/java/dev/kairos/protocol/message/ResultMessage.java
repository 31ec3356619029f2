package dev.kairos.protocol.message;

import static dev.kairos.protocol.message.TriggerMessage.requireNonNegative;
import static dev.kairos.protocol.message.TriggerMessage.requireText;

import java.util.Objects;

/**
 * What an executor publishes on {@link TopicNames#RESULTS} about one delivery of a trigger. The
 * message key is the trigger id.
 *
 * @param version wire format version, {@link #VERSION}
 * @param triggerId the trigger the report is about
 * @param jobId the trigger's job
 * @param executorId the reporting executor instance (its slot lease instance id)
 * @param slot the slot the executor held when it took the message
 * @param status the outcome of this delivery
 * @param startedMs when the handler started (Redis time of the start claim), 0 if it never started
 * @param endedMs when the handler ended or the report was made, epoch ms
 * @param message error text or handler message, at most {@link #MAX_MESSAGE_CHARS} characters
 *     (longer text is cut and marked)
 * @param attempt the attempt number copied from the trigger message
 */
public record ResultMessage(
    int version,
    String triggerId,
    String jobId,
    String executorId,
    int slot,
    ResultStatus status,
    long startedMs,
    long endedMs,
    String message,
    int attempt) {

  public static final int VERSION = 1;

  /** Bound on the message text so a stack trace cannot blow up the result topic or Redis. */
  public static final int MAX_MESSAGE_CHARS = 2000;

  static final String TRUNCATED_MARK = "...[truncated]";

  public ResultMessage {
    if (version != VERSION) {
      throw new IllegalArgumentException("unsupported result message version " + version);
    }
    requireText(triggerId, "triggerId");
    requireText(jobId, "jobId");
    requireText(executorId, "executorId");
    requireNonNegative(slot, "slot");
    Objects.requireNonNull(status, "status");
    requireNonNegative(startedMs, "startedMs");
    requireNonNegative(endedMs, "endedMs");
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1 but was " + attempt);
    }
    message = truncate(message == null ? "" : message);
  }

  /** A v1 result about the delivery of {@code trigger}. */
  public static ResultMessage of(
      TriggerMessage trigger,
      String executorId,
      int slot,
      ResultStatus status,
      long startedMs,
      long endedMs,
      String message) {
    return new ResultMessage(
        VERSION,
        trigger.triggerId(),
        trigger.jobId(),
        executorId,
        slot,
        status,
        startedMs,
        endedMs,
        message,
        trigger.attempt());
  }

  public String messageKey() {
    return triggerId;
  }

  /** Cuts {@code text} to {@link #MAX_MESSAGE_CHARS}, marking the cut. */
  public static String truncate(String text) {
    if (text.length() <= MAX_MESSAGE_CHARS) {
      return text;
    }
    int keep = MAX_MESSAGE_CHARS - TRUNCATED_MARK.length();
    // Do not split a surrogate pair: half a character is not valid UTF-16.
    if (Character.isHighSurrogate(text.charAt(keep - 1))) {
      keep--;
    }
    return text.substring(0, keep) + TRUNCATED_MARK;
  }
}
