package dev.kairos.node.api.calendar;

import dev.kairos.core.calendar.CalendarStore;
import dev.kairos.core.calendar.ExclusionCalendar;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.JobFields;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that the calendars a job names exist when it is written: a job write naming an unknown
 * calendar is a 400 naming the field. One HMGET, none for a job without calendars. (A calendar
 * deleted later stays named by its jobs and then excludes nothing.)
 */
public final class CalendarReferences {

  private final CalendarStore store;

  public CalendarReferences(CalendarStore store) {
    this.store = store;
  }

  /** The problems of {@code job}'s calendar names, each field prefixed by {@code prefix}. */
  public List<FieldError> unknown(JobDefinition job, String prefix) {
    List<FieldError> errors = new ArrayList<>();
    if (job.calendars().isEmpty()) {
      return errors;
    }
    for (String name : store.missing(job.calendars())) {
      errors.add(
          new FieldError(
              prefix + JobFields.CALENDARS,
              "calendar '" + name + "' does not exist (GET /api/v1/calendars lists them)"));
    }
    return errors;
  }

  /**
   * The calendars of {@code names} that exist, compiled, for a preview (one read per name: a job
   * names at most ten).
   */
  public Map<String, ExclusionCalendar> compiled(List<String> names) {
    Map<String, ExclusionCalendar> found = new HashMap<>();
    for (String name : names) {
      store.get(name).ifPresent(c -> found.put(name, c.compile()));
    }
    return found;
  }

  /** Throws a 400 when {@code job} names a calendar that does not exist. */
  public void check(JobDefinition job) {
    List<FieldError> errors = unknown(job, "");
    if (!errors.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.VALIDATION_FAILED,
          "job " + job.id() + " names calendars that do not exist",
          errors,
          Map.of());
    }
  }
}
