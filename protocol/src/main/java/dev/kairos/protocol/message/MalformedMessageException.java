package dev.kairos.protocol.message;

import dev.kairos.core.error.KairosException;

/**
 * A message body that cannot be read as a Kairos message: not JSON, a missing or invalid field, or
 * a version this reader does not know. Consumers report it and move on; they never retry it.
 */
public class MalformedMessageException extends KairosException {

  public MalformedMessageException(String message) {
    super(message);
  }

  public MalformedMessageException(String message, Throwable cause) {
    super(message, cause);
  }
}
