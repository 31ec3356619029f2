package dev.kairos.migrate.xxljob.kairos;

import dev.kairos.core.error.KairosException;

/** Kairos' API refused or failed a call; the message carries the status and the problem's text. */
public class KairosApiException extends KairosException {

  private final int status;

  public KairosApiException(int status, String message) {
    super(message);
    this.status = status;
  }

  public KairosApiException(String message, Throwable cause) {
    super(message, cause);
    this.status = 0;
  }

  /** The HTTP status, 0 when no answer came. */
  public int status() {
    return status;
  }
}
