package dev.kairos.core.secret;

/**
 * A sealed params value that cannot be opened: sealed with a key this process does not hold, or
 * altered. The message names the field and the key id, never a value.
 */
public final class SecretParamsException extends RuntimeException {

  SecretParamsException(String message) {
    super(message);
  }
}
