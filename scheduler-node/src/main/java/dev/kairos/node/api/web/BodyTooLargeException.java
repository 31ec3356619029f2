package dev.kairos.node.api.web;

import java.io.IOException;

/** The request body grew past {@code kairos.api.max-body-size} while it was being read. */
public class BodyTooLargeException extends IOException {

  public BodyTooLargeException(long limit) {
    super("the request body is larger than the limit of " + limit + " bytes");
  }
}
