package dev.kairos.node.api.backfill;

import dev.kairos.audit.AuditAction;
import dev.kairos.backfill.Backfill;
import dev.kairos.backfill.BackfillRejectedException;
import dev.kairos.backfill.BackfillStore;
import dev.kairos.backfill.Backfills;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.JobIds;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Backfills: run a job's fires for a past range (docs/backfill.md). A backfill belongs to its job's
 * app: OPERATOR of the app or ADMIN may start and cancel it, VIEWER may read it; writes are
 * audited.
 */
@RestController
@ConditionalOnProperty(prefix = "kairos.backfill", name = "enabled", matchIfMissing = true)
class BackfillController {

  static final String JOBS = "/api/v1/jobs";
  static final String BACKFILLS = "/api/v1/backfills";

  private final Backfills backfills;
  private final JobStore jobs;
  private final AuditTrail audit;

  BackfillController(Backfills backfills, JobStore jobs, AuditTrail audit) {
    this.backfills = backfills;
    this.jobs = jobs;
    this.audit = audit;
  }

  /**
   * Starts a backfill of the job's fires in [from, to], or answers the one the same job, from and
   * to started before (200, nothing started; its maxConcurrent is the first request's).
   */
  @ApiResponse(responseCode = "201", description = "started; Location names it")
  @ApiResponse(responseCode = "200", description = "the same range was asked before: that one")
  @PostMapping(path = JOBS + "/{id}/backfills", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<BackfillView> start(
      @PathVariable String id, @RequestBody(required = false) BackfillRequest request) {
    JobIds.checked("id", id);
    JobDefinition job = jobs.get(id).orElseThrow(() -> new JobNotFoundException(id));
    Callers.requireWrite(job.app(), () -> new JobNotFoundException(id));
    if (request == null) {
      throw ApiProblemException.field(ProblemType.VALIDATION_FAILED, "from", "is required");
    }
    long from = instant("from", request.from());
    long to = instant("to", request.to());
    int maxConcurrent = request.maxConcurrent() == null ? 1 : request.maxConcurrent();
    Backfills.Started started;
    try {
      started = backfills.start(job, from, to, maxConcurrent);
    } catch (BackfillRejectedException e) {
      ProblemType type =
          e.field().equals("to") && e.reason().startsWith("the range holds more")
              ? ProblemType.LIMIT_EXCEEDED
              : ProblemType.VALIDATION_FAILED;
      throw ApiProblemException.field(type, e.field(), e.reason());
    }
    Backfill b = started.backfill();
    if (!started.created()) {
      return ResponseEntity.ok(BackfillView.of(b));
    }
    audit.jobAction(
        AuditAction.BACKFILL_STARTED,
        job.app(),
        id,
        "backfill "
            + b.id()
            + ": "
            + b.total()
            + " fires from "
            + request.from()
            + " to "
            + request.to()
            + ", at most "
            + b.maxConcurrent()
            + " at once");
    return ResponseEntity.created(URI.create(BACKFILLS + "/" + b.id())).body(BackfillView.of(b));
  }

  /**
   * The job's backfills still kept (RUNNING, and ended ones until their retention), newest first.
   */
  @GetMapping(path = JOBS + "/{id}/backfills", produces = MediaType.APPLICATION_JSON_VALUE)
  BackfillView.Page list(@PathVariable String id) {
    JobIds.checked("id", id);
    JobDefinition job = jobs.get(id).orElseThrow(() -> new JobNotFoundException(id));
    Callers.requireRead(job.app(), () -> new JobNotFoundException(id));
    return new BackfillView.Page(backfills.forJob(id).stream().map(BackfillView::of).toList());
  }

  /** One backfill and its progress. */
  @GetMapping(path = BACKFILLS + "/{backfillId}", produces = MediaType.APPLICATION_JSON_VALUE)
  BackfillView get(@PathVariable String backfillId) {
    return BackfillView.of(find(backfillId));
  }

  /**
   * Cancels a RUNNING backfill: no further fire is submitted; fires already submitted run to their
   * end (cancel one with {@code POST /api/v1/triggers/{id}/cancel}). An ended backfill is answered
   * as it is.
   */
  @PostMapping(
      path = BACKFILLS + "/{backfillId}/cancel",
      produces = MediaType.APPLICATION_JSON_VALUE)
  BackfillView cancel(@PathVariable String backfillId) {
    Backfill b = find(backfillId);
    Callers.requireWrite(b.app(), () -> notFound(backfillId));
    BackfillStore.Outcome outcome =
        backfills.cancel(backfillId, "cancelled by " + Callers.current().role());
    if (outcome == BackfillStore.Outcome.OK) {
      audit.jobAction(
          AuditAction.BACKFILL_CANCELLED,
          b.app(),
          b.jobId(),
          "backfill " + backfillId + " after " + b.submitted() + " of " + b.total() + " fires");
    }
    return BackfillView.of(find(backfillId));
  }

  private Backfill find(String backfillId) {
    Backfill b = backfills.get(backfillId).orElseThrow(() -> notFound(backfillId));
    Callers.requireRead(b.app(), () -> notFound(backfillId));
    return b;
  }

  private static ApiProblemException notFound(String backfillId) {
    return new ApiProblemException(ProblemType.NOT_FOUND, "no backfill " + backfillId);
  }

  private static long instant(String field, String value) {
    if (value == null || value.isBlank()) {
      throw ApiProblemException.field(
          ProblemType.VALIDATION_FAILED, field, "is required (an ISO-8601 instant)");
    }
    try {
      return Instant.parse(value).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          field,
          "must be an ISO-8601 instant such as 2026-01-01T00:00:00Z but was '" + value + "'");
    }
  }
}
