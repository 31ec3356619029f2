package dev.kairos.alarm;

import dev.kairos.core.error.KairosException;

/**
 * A channel could not deliver a notice. The message is logged as it is, so it names the target in
 * its redacted form only (no query string, no credentials, no header values).
 */
public class AlarmDeliveryException extends KairosException {

  private final boolean retryable;

  public AlarmDeliveryException(String message, boolean retryable) {
    super(message);
    this.retryable = retryable;
  }

  /**
   * Whether trying again later may succeed (a timeout, a 5xx), as opposed to a rejected request.
   */
  public boolean retryable() {
    return retryable;
  }
}
