package dev.kairos.node.api.history;

import dev.kairos.core.model.TriggerState;
import dev.kairos.core.store.AppSettings;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Query parameters of the history endpoints, checked one by one so a bad one is answered 400 with
 * its name before PostgreSQL is asked anything.
 */
public final class HistoryParams {

  /** Longest free-text search; a longer one is a paste gone wrong, not a search. */
  public static final int MAX_TEXT = 200;

  private HistoryParams() {}

  /** An instant as epoch milliseconds or ISO-8601 ({@code 2026-11-26T10:00:00Z}); null stays. */
  public static Long instant(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    if (v.chars().allMatch(Character::isDigit) && v.length() <= 15) {
      return Long.parseLong(v);
    }
    try {
      return Instant.parse(v).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          field,
          "must be epoch milliseconds or an ISO-8601 instant (2026-11-26T10:00:00Z) but was '"
              + v
              + "'");
    }
  }

  /** A UTC day as ISO-8601 ({@code 2026-11-26}); null stays. */
  public static LocalDate day(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return LocalDate.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          field,
          "must be an ISO-8601 date (2026-11-26) but was '" + value.trim() + "'");
    }
  }

  /** {@code to} must come after {@code from}, and the range may span at most {@code max}. */
  public static void range(long fromMs, long toMs, Duration max) {
    if (toMs <= fromMs) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "to", "must be after from (" + fromMs + ") but was " + toMs);
    }
    if (toMs - fromMs > max.toMillis()) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "from",
          "the range may span at most " + max.toDays() + " days");
    }
  }

  /**
   * {@code to} may not come before {@code from}, and the days [from, to] are at most {@code max}.
   */
  public static void days(LocalDate from, LocalDate to, int max) {
    if (to.isBefore(from)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "to", "must not be before from (" + from + ") but was " + to);
    }
    if (to.toEpochDay() - from.toEpochDay() + 1 > max) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED, "from", "the report may span at most " + max + " days");
    }
  }

  /** Trigger state names; each repeated or comma-separated value must name a state. */
  public static List<String> states(List<String> values) {
    List<String> states = new ArrayList<>();
    if (values == null) {
      return states;
    }
    for (String value : values) {
      for (String s : value.split(",")) {
        String name = s.trim();
        if (name.isEmpty()) {
          continue;
        }
        try {
          states.add(TriggerState.valueOf(name).name());
        } catch (IllegalArgumentException e) {
          throw ApiProblemException.field(
              ProblemType.INVALID_FIELD,
              "state",
              "must be one of " + List.of(TriggerState.values()) + " but was '" + name + "'");
        }
      }
    }
    return states;
  }

  public static String app(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    if (!AppSettings.isValidApp(value)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "app", "must be 1-64 characters of [A-Za-z0-9_.-]");
    }
    return value;
  }

  public static String text(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    if (value.length() > MAX_TEXT) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "text",
          "is " + value.length() + " characters; at most " + MAX_TEXT + " are searched");
    }
    return value;
  }
}
