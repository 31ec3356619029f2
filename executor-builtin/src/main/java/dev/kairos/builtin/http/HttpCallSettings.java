package dev.kairos.builtin.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How an executor's HTTP handler behaves.
 *
 * @param defaultTimeout the timeout of a call whose params give none
 * @param bodyLogChars the most bytes of a response body read and written to the run's log
 * @param destinations where calls may go (and redirects lead)
 */
public record HttpCallSettings(
    Duration defaultTimeout, int bodyLogChars, DestinationPolicy destinations) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_BODY_LOG_CHARS = 500;

  public HttpCallSettings {
    Objects.requireNonNull(defaultTimeout, "defaultTimeout");
    Objects.requireNonNull(destinations, "destinations");
    if (defaultTimeout.isNegative() || defaultTimeout.isZero()) {
      throw new IllegalArgumentException("default timeout must be above 0, was " + defaultTimeout);
    }
    if (bodyLogChars < 0) {
      throw new IllegalArgumentException("body log chars must be 0 or more, was " + bodyLogChars);
    }
  }

  public static HttpCallSettings defaults() {
    return new HttpCallSettings(
        DEFAULT_TIMEOUT, DEFAULT_BODY_LOG_CHARS, DestinationPolicy.publicOnly());
  }
}
