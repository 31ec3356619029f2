package dev.kairos.migrate.xxljob.source;

import dev.kairos.core.error.KairosException;

/**
 * The xxl-job tables could not be read: a malformed dump, a missing table or column, a SQL error.
 */
public class XxlSourceException extends KairosException {

  public XxlSourceException(String message) {
    super(message);
  }

  public XxlSourceException(String message, Throwable cause) {
    super(message, cause);
  }
}
