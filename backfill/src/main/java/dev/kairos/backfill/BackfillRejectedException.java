package dev.kairos.backfill;

import dev.kairos.core.error.KairosException;

/** A backfill request that breaks a rule; {@link #field()} names the request field at fault. */
public final class BackfillRejectedException extends KairosException {

  private final String field;

  public BackfillRejectedException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  public String field() {
    return field;
  }

  /** The rule broken, without the field name. */
  public String reason() {
    return getMessage().substring(field.length() + 2);
  }
}
