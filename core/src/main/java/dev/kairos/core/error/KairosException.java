package dev.kairos.core.error;

/** Root of every exception Kairos throws on purpose; messages carry the ids involved. */
public class KairosException extends RuntimeException {

  public KairosException(String message) {
    super(message);
  }

  public KairosException(String message, Throwable cause) {
    super(message, cause);
  }
}
