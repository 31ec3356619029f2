package dev.kairos.core.schedule;

import dev.kairos.core.error.KairosException;

/** A schedule spec or zone that cannot be parsed; the message says what and where. */
public class InvalidScheduleException extends KairosException {

  public InvalidScheduleException(String message) {
    super(message);
  }
}
