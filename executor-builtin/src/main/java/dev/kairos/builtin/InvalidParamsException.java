package dev.kairos.builtin;

import dev.kairos.core.error.KairosException;

/**
 * A built-in handler's job params are not what it needs; the run fails with this message and
 * nothing is started (no request sent, no process run).
 */
public class InvalidParamsException extends KairosException {

  public InvalidParamsException(String handler, String field, String reason) {
    super(
        "invalid params of "
            + handler
            + (field == null ? "" : ": field \"" + field + "\"")
            + ": "
            + reason);
  }
}
