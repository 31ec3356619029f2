package dev.kairos.node.api.audit;

import dev.kairos.audit.AuditTable;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.history.HistoryParams;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.security.ApiSecurityConfiguration;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.node.api.web.ListCursor;
import dev.kairos.sync.event.StreamId;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The audit trail (ADMIN only, {@code ApiSecurityConfiguration}): every write through the API,
 * newest first, filtered by app, job, actor and time, a page at a time by cursor, each entry with
 * its diff. Read from PostgreSQL, so it trails the writes by the audit consumer's lag.
 */
@RestController
class AuditController {

  static final String AUDIT = ApiSecurityConfiguration.AUDIT_PATH;

  /** Longest actor name searched for: a token name is at most 64 characters. */
  static final int MAX_ACTOR = 128;

  private final AuditPostgres postgres;
  private final ApiProperties limits;

  AuditController(AuditPostgres postgres, ApiProperties limits) {
    this.postgres = postgres;
    this.limits = limits;
  }

  @GetMapping(path = AUDIT, produces = MediaType.APPLICATION_JSON_VALUE)
  AuditPage list(
      @RequestParam(required = false) String app,
      @RequestParam(required = false) String jobId,
      @RequestParam(required = false) String actor,
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) String cursor) {
    String checkedApp = HistoryParams.app(app);
    String job = jobId == null || jobId.isBlank() ? null : JobIds.checked("jobId", jobId);
    String who = actor(actor);
    Long fromMs = HistoryParams.instant("from", from);
    Long toMs = HistoryParams.instant("to", to);
    if (fromMs != null && toMs != null && toMs <= fromMs) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "to", "must be after from (" + fromMs + ") but was " + toMs);
    }
    int n = limit(limit);
    StreamId before = cursor(cursor);
    AuditTable.Page page =
        postgres.page(new AuditTable.Filter(checkedApp, job, who, fromMs, toMs), before, n);
    return new AuditPage(
        page.items().stream().map(AuditView::of).toList(),
        n,
        page.next() == null ? null : ListCursor.encode(page.next().toString()));
  }

  private static String actor(String actor) {
    if (actor == null || actor.isBlank()) {
      return null;
    }
    if (actor.length() > MAX_ACTOR) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          "actor",
          "is " + actor.length() + " characters; a token name has at most " + MAX_ACTOR);
    }
    return actor;
  }

  private int limit(Integer limit) {
    int n = limit == null ? limits.getDefaultPageSize() : limit;
    if (n < 1) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "limit", "must be >= 1 but was " + n);
    }
    if (n > limits.getMaxPageSize()) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "limit",
          "must be at most "
              + limits.getMaxPageSize()
              + " (kairos.api.max-page-size) but was "
              + n);
    }
    return n;
  }

  /** The entry id the page continues below; the cursor is {@link ListCursor}'s, over that id. */
  private static StreamId cursor(String cursor) {
    String id = ListCursor.decode("cursor", cursor);
    if (id == null) {
      return null;
    }
    try {
      return StreamId.parse(id);
    } catch (NumberFormatException e) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          "cursor",
          "is not a cursor of this list: pass nextCursor from the previous page as it came");
    }
  }
}
