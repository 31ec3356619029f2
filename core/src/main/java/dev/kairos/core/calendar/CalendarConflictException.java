package dev.kairos.core.calendar;

import dev.kairos.core.error.KairosException;

/** A calendar write whose expected version is no longer the stored one. */
public final class CalendarConflictException extends KairosException {

  public CalendarConflictException(String name, long expected, long actual) {
    super(
        "calendar "
            + name
            + " is at version "
            + (actual < 0 ? "newer than " + expected : Long.toString(actual))
            + ", not the expected "
            + expected);
  }
}
