package dev.kairos.alarm;

/**
 * Where alarms go (a webhook, a mailbox, a chat). {@link AlarmService} calls {@link #deliver} on
 * its own delivery threads, never on the thread that raised the alarm, and retries a retryable
 * failure as {@link #retryPolicy()} says. Implementations must be thread-safe and must bound every
 * network call with a timeout.
 */
public interface AlarmChannel {

  /** Short, stable name: the {@code channel} tag of the metrics and the logs. */
  String name();

  /**
   * Delivers one notice, synchronously.
   *
   * @throws AlarmDeliveryException when it was not delivered; its message must not carry secrets
   */
  void deliver(AlarmNotice notice);

  /** How often and how late a retryable failure is tried again. */
  default RetryPolicy retryPolicy() {
    return RetryPolicy.NONE;
  }
}
