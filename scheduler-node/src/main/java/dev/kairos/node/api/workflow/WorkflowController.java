package dev.kairos.node.api.workflow;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobId;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.Versions;
import dev.kairos.workflow.Violation;
import dev.kairos.workflow.WorkflowDefinition;
import dev.kairos.workflow.WorkflowDriver;
import dev.kairos.workflow.WorkflowExistsException;
import dev.kairos.workflow.WorkflowNotFoundException;
import dev.kairos.workflow.WorkflowRun;
import dev.kairos.workflow.WorkflowStore;
import dev.kairos.workflow.WorkflowValidator;
import dev.kairos.workflow.WorkflowVersionConflictException;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Workflows and their runs (in {@code api} so the problem+json advice applies, like every
 * controller). A workflow is its app's like a job: reading it needs read access to the app, writing
 * it, starting or cancelling its runs write access, and what lies outside the caller's apps does
 * not exist for it (404). Writes are audited.
 */
@RestController
@ConditionalOnProperty(prefix = "kairos.workflow", name = "enabled", matchIfMissing = true)
class WorkflowController {

  static final String WORKFLOWS = "/api/v1/workflows";
  static final String RUNS = "/api/v1/workflow-runs";
  private static final int MAX_RUNS_LISTED = WorkflowStore.RUN_INDEX_SIZE;

  private final WorkflowStore store;
  private final WorkflowDriver driver;
  private final WorkflowValidator validator;
  private final JobStore jobs;
  private final ClusterClock clock;
  private final AuditTrail audit;

  WorkflowController(
      WorkflowStore store,
      WorkflowDriver driver,
      WorkflowValidator validator,
      JobStore jobs,
      ClusterClock clock,
      AuditTrail audit) {
    this.store = store;
    this.driver = driver;
    this.validator = validator;
    this.jobs = jobs;
    this.clock = clock;
    this.audit = audit;
  }

  @ApiResponse(responseCode = "201", description = "created; Location and ETag name it")
  @PostMapping(path = WORKFLOWS, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<WorkflowView> create(@RequestBody WorkflowRequest request) {
    WorkflowDefinition w = request.toDefinition(request.id());
    Callers.requireWriteNew(w.app(), "app");
    validate(w);
    WorkflowDefinition stored;
    try {
      stored = store.create(w, clock.nowMs());
    } catch (WorkflowExistsException e) {
      throw new ApiProblemException(ProblemType.WORKFLOW_EXISTS, e.getMessage());
    }
    audit.action(AuditAction.WORKFLOW_CREATED, stored.app(), "workflow " + stored.id());
    return ResponseEntity.created(URI.create(WORKFLOWS + "/" + stored.id()))
        .eTag(Versions.etag(stored.version()))
        .body(view(stored));
  }

  @GetMapping(path = WORKFLOWS, produces = MediaType.APPLICATION_JSON_VALUE)
  WorkflowList<WorkflowView> list(@RequestParam(required = false) String app) {
    return new WorkflowList<>(
        store.list().stream()
            .filter(w -> Callers.current().canRead(w.app()))
            .filter(w -> app == null || app.equals(w.app()))
            .map(this::view)
            .toList());
  }

  /** Every workflow the caller may read, as a document {@code POST .../import} takes back. */
  @GetMapping(path = WORKFLOWS + "/export", produces = MediaType.APPLICATION_JSON_VALUE)
  WorkflowExport export(@RequestParam(required = false) String app) {
    return new WorkflowExport(
        store.list().stream()
            .filter(w -> Callers.current().canRead(w.app()))
            .filter(w -> app == null || app.equals(w.app()))
            .toList());
  }

  /**
   * Creates the workflows that do not exist and updates those that differ; one that is the same is
   * left alone, so importing an export twice changes nothing. Every workflow is validated before
   * any is written.
   */
  @PostMapping(path = WORKFLOWS + "/import", produces = MediaType.APPLICATION_JSON_VALUE)
  WorkflowImportResult importAll(@RequestBody WorkflowExport document) {
    List<WorkflowDefinition> wanted =
        document.workflows() == null ? List.of() : document.workflows();
    List<FieldError> problems = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      WorkflowDefinition w = wanted.get(i);
      if (w == null) {
        problems.add(new FieldError("workflows[" + i + "]", "is null"));
        continue;
      }
      Callers.requireWriteNew(w.app(), "workflows[" + i + "].app");
      for (Violation v : validator.check(w, this::appOfJob)) {
        problems.add(new FieldError("workflows[" + i + "]." + v.field(), v.message()));
      }
    }
    if (!problems.isEmpty()) {
      throw invalid("the import is invalid; nothing was written", problems);
    }
    List<String> created = new ArrayList<>();
    List<String> updated = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    long now = clock.nowMs();
    for (WorkflowDefinition w : wanted) {
      Optional<WorkflowDefinition> before = store.get(w.id());
      if (before.isEmpty()) {
        store.create(w, now);
        created.add(w.id());
      } else if (before.get().sameAs(w)) {
        unchanged.add(w.id());
        continue;
      } else {
        Callers.requireWrite(before.get().app(), () -> notFound(w.id()));
        store.update(w, before.get().version(), now);
        updated.add(w.id());
      }
      audit.action(AuditAction.WORKFLOW_IMPORTED, w.app(), "workflow " + w.id());
    }
    return new WorkflowImportResult(created, updated, unchanged);
  }

  @GetMapping(path = WORKFLOWS + "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<WorkflowView> get(@PathVariable String id) {
    WorkflowDefinition w = find(id);
    return ResponseEntity.ok().eTag(Versions.etag(w.version())).body(view(w));
  }

  /** Replaces the definition at the version {@code If-Match} (or the body's version) names. */
  @PutMapping(path = WORKFLOWS + "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<WorkflowView> update(
      @PathVariable String id,
      @RequestHeader(name = Versions.IF_MATCH, required = false) String ifMatch,
      @RequestBody WorkflowRequest request) {
    if (request.id() != null && !request.id().equals(id)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "id", "must be absent or equal to the path's id '" + id + "'");
    }
    WorkflowDefinition before = findWritable(id);
    OptionalLong header = Versions.ifMatch(ifMatch);
    Long expected = header.isPresent() ? Long.valueOf(header.getAsLong()) : request.version();
    if (expected == null) {
      throw ApiProblemException.field(
          ProblemType.PRECONDITION_REQUIRED,
          Versions.IF_MATCH,
          "send If-Match with the workflow's ETag (or \"version\" in the body)");
    }
    WorkflowDefinition w = request.toDefinition(id);
    Callers.requireWriteNew(w.app(), "app");
    validate(w);
    WorkflowDefinition stored;
    try {
      stored = store.update(w, expected, clock.nowMs());
    } catch (WorkflowVersionConflictException e) {
      throw new ApiProblemException(ProblemType.VERSION_CONFLICT, e.getMessage());
    }
    audit.action(
        AuditAction.WORKFLOW_UPDATED,
        stored.app(),
        "workflow " + id + " version " + before.version() + " -> " + stored.version());
    return ResponseEntity.ok().eTag(Versions.etag(stored.version())).body(view(stored));
  }

  @ApiResponse(responseCode = "204", description = "deleted; its runs expire with their TTL")
  @DeleteMapping(path = WORKFLOWS + "/{id}")
  ResponseEntity<Void> delete(
      @PathVariable String id,
      @RequestHeader(name = Versions.IF_MATCH, required = false) String ifMatch) {
    WorkflowDefinition before = findWritable(id);
    try {
      store.delete(id, Versions.ifMatch(ifMatch));
    } catch (WorkflowVersionConflictException e) {
      throw new ApiProblemException(ProblemType.VERSION_CONFLICT, e.getMessage());
    } catch (WorkflowNotFoundException e) {
      throw notFound(id);
    }
    audit.action(AuditAction.WORKFLOW_DELETED, before.app(), "workflow " + id);
    return ResponseEntity.noContent().build();
  }

  /** Starts a run now; answers 202 with the run (its root nodes triggered). */
  @ApiResponse(responseCode = "202", description = "started; Location names the run")
  @PostMapping(path = WORKFLOWS + "/{id}/runs", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<WorkflowRun> start(@PathVariable String id) {
    WorkflowDefinition w = findWritable(id);
    WorkflowRun run = driver.startNow(w);
    audit.action(AuditAction.WORKFLOW_RUN_STARTED, w.app(), "workflow " + id + " run " + run.id());
    return ResponseEntity.accepted().location(URI.create(RUNS + "/" + run.id())).body(run);
  }

  /** The newest runs, newest first. */
  @GetMapping(path = WORKFLOWS + "/{id}/runs", produces = MediaType.APPLICATION_JSON_VALUE)
  WorkflowList<RunSummary> runs(
      @PathVariable String id, @RequestParam(required = false) Integer limit) {
    find(id);
    int n = limit == null ? 20 : limit;
    if (n < 1 || n > MAX_RUNS_LISTED) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "limit", "must be in 1.." + MAX_RUNS_LISTED + " but was " + n);
    }
    List<RunSummary> out = new ArrayList<>();
    for (String runId : store.recentRuns(id, n)) {
      driver.run(runId).map(RunSummary::of).ifPresent(out::add);
    }
    return new WorkflowList<>(out);
  }

  /** A run: its state and each node's state and trigger ids. */
  @GetMapping(path = RUNS + "/{runId}", produces = MediaType.APPLICATION_JSON_VALUE)
  WorkflowRun run(@PathVariable String runId) {
    WorkflowRun run = driver.run(runId).orElseThrow(() -> notFound(runId));
    Callers.requireRead(run.app(), () -> notFound(runId));
    return run;
  }

  /**
   * Cancels a run: no node starts any more (PENDING nodes become SKIPPED); nodes already triggered
   * run to their end, which is still recorded. Cancelling an ended run changes nothing.
   */
  @PostMapping(path = RUNS + "/{runId}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
  WorkflowRun cancel(@PathVariable String runId) {
    WorkflowRun run = driver.run(runId).orElseThrow(() -> notFound(runId));
    Callers.requireWrite(run.app(), () -> notFound(runId));
    WorkflowRun cancelled = driver.cancel(runId);
    audit.action(
        AuditAction.WORKFLOW_RUN_CANCELLED,
        run.app(),
        "workflow " + run.workflowId() + " run " + runId);
    return cancelled == null ? run : cancelled;
  }

  private void validate(WorkflowDefinition w) {
    List<Violation> v = validator.check(w, this::appOfJob);
    if (!v.isEmpty()) {
      throw invalid(
          "the workflow is invalid",
          v.stream().map(x -> new FieldError(x.field(), x.message())).toList());
    }
  }

  private static ApiProblemException invalid(String detail, List<FieldError> problems) {
    return new ApiProblemException(
        ProblemType.VALIDATION_FAILED,
        detail + ": " + problems.stream().map(p -> p.field() + ": " + p.message()).toList(),
        problems,
        Map.of());
  }

  private Optional<String> appOfJob(String jobId) {
    return jobs.get(jobId).map(JobDefinition::app);
  }

  private WorkflowView view(WorkflowDefinition w) {
    OptionalLong next = store.dueAt(w.id());
    return new WorkflowView(w, next.isPresent() ? next.getAsLong() : null);
  }

  private WorkflowDefinition find(String id) {
    if (!JobId.isValid(id)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "id", "must be 1-64 characters of [A-Za-z0-9_.-]");
    }
    WorkflowDefinition w = store.get(id).orElseThrow(() -> notFound(id));
    Callers.requireRead(w.app(), () -> notFound(id));
    return w;
  }

  private WorkflowDefinition findWritable(String id) {
    WorkflowDefinition w = find(id);
    Callers.requireWrite(w.app(), () -> notFound(id));
    return w;
  }

  private static ApiProblemException notFound(String id) {
    return new ApiProblemException(ProblemType.NOT_FOUND, "no workflow or workflow run " + id);
  }
}
