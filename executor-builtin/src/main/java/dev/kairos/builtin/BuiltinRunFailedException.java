package dev.kairos.builtin;

import dev.kairos.core.error.KairosException;

/**
 * A built-in handler's run failed for a reason it can name: a status outside the success set, no
 * response in time, a non-zero exit code, a script job refused by this executor's settings.
 */
public class BuiltinRunFailedException extends KairosException {

  public BuiltinRunFailedException(String message) {
    super(message);
  }

  public BuiltinRunFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
