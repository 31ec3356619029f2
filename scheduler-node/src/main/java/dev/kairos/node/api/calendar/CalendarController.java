package dev.kairos.node.api.calendar;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.calendar.CalendarDefinition;
import dev.kairos.core.calendar.CalendarStore;
import dev.kairos.core.model.JobId;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Calendars: named sets of excluded dates and times that jobs reference (their fires in them are
 * recorded SKIPPED). Cluster-wide, so every role reads them and only ADMIN writes (the security
 * chain refuses other roles' writes before this controller; the check here says so again). A
 * calendar still named by jobs may be deleted: those jobs then skip nothing for it.
 */
@RestController
class CalendarController {

  static final String CALENDARS = "/api/v1/calendars";

  private final CalendarStore store;
  private final AuditTrail audit;

  CalendarController(CalendarStore store, AuditTrail audit) {
    this.store = store;
    this.audit = audit;
  }

  @GetMapping(path = CALENDARS, produces = MediaType.APPLICATION_JSON_VALUE)
  List<CalendarView> list() {
    return store.all().values().stream().map(CalendarView::of).toList();
  }

  @GetMapping(path = CALENDARS + "/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
  CalendarView get(@PathVariable String name) {
    checkName(name);
    return store.get(name).map(CalendarView::of).orElseThrow(() -> notFound(name));
  }

  @PutMapping(path = CALENDARS + "/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
  CalendarView put(@PathVariable String name, @RequestBody CalendarRequest request) {
    requireAdmin();
    checkName(name);
    CalendarDefinition wanted = request.toDefinition(name);
    List<ValidationProblem> problems = wanted.problems();
    if (!problems.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.VALIDATION_FAILED,
          "calendar " + name + " is invalid: " + problems,
          problems.stream().map(p -> new FieldError(p.field(), p.message())).toList(),
          Map.of());
    }
    CalendarDefinition stored = store.put(wanted, Optional.empty());
    audit.action(
        AuditAction.CALENDAR_WRITTEN,
        null,
        "calendar "
            + name
            + " version "
            + stored.version()
            + ": "
            + stored.dates().size()
            + " dates, weekdays "
            + stored.weekdays()
            + ", daily "
            + stored.dailyRanges()
            + ", "
            + stored.ranges().size()
            + " ranges");
    return CalendarView.of(stored);
  }

  @DeleteMapping(path = CALENDARS + "/{name}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void delete(@PathVariable String name) {
    requireAdmin();
    checkName(name);
    if (!store.delete(name)) {
      throw notFound(name);
    }
    audit.action(AuditAction.CALENDAR_DELETED, null, "calendar " + name);
  }

  private static void requireAdmin() {
    if (!Callers.current().isAdmin()) {
      throw new ApiProblemException(
          ProblemType.FORBIDDEN, "calendars are cluster-wide: only an ADMIN token writes them");
    }
  }

  private static ApiProblemException notFound(String name) {
    return new ApiProblemException(ProblemType.NOT_FOUND, "no calendar " + name);
  }

  private static void checkName(String name) {
    if (!JobId.isValid(name)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "name", "must be 1-64 characters of [A-Za-z0-9_.-]");
    }
  }
}
