package dev.kairos.node.api.batch;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.kairos.audit.AuditAction;
import dev.kairos.core.batch.WriteWindow;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.job.JobCatalog;
import dev.kairos.node.api.job.JobRequest;
import dev.kairos.node.api.job.ParamsRedaction;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.security.Access;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Many jobs at once: enable, disable, delete by id; export (all jobs or a filter) and import. The
 * batch paths sit beside {@code /api/v1/jobs}, not under it, so no job id can shadow them.
 */
@RestController
class BatchController {

  private final JobStore store;
  private final JobCatalog catalog;
  private final JobImporter importer;
  private final ClusterClock clock;
  private final ApiProperties limits;
  private final ObjectWriter writer;
  private final AuditTrail audit;

  BatchController(
      JobStore store,
      JobCatalog catalog,
      JobImporter importer,
      ClusterClock clock,
      ApiProperties limits,
      ObjectMapper json,
      AuditTrail audit) {
    this.store = store;
    this.audit = audit;
    this.catalog = catalog;
    this.importer = importer;
    this.clock = clock;
    this.limits = limits;
    // One job per call: flushing after each would send the export in tiny pieces.
    this.writer = json.writer().without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
  }

  @PostMapping(path = "/api/v1/job-batches/enable", produces = MediaType.APPLICATION_JSON_VALUE)
  BatchResult enable(@RequestBody BatchRequest request) {
    return apply("enable", AuditAction.JOB_ENABLED, request, store::enableAsync);
  }

  @PostMapping(path = "/api/v1/job-batches/disable", produces = MediaType.APPLICATION_JSON_VALUE)
  BatchResult disable(@RequestBody BatchRequest request) {
    return apply("disable", AuditAction.JOB_DISABLED, request, store::disableAsync);
  }

  @PostMapping(path = "/api/v1/job-batches/delete", produces = MediaType.APPLICATION_JSON_VALUE)
  BatchResult delete(@RequestBody BatchRequest request) {
    return apply(
        "delete",
        AuditAction.JOB_DELETED,
        request,
        id -> store.deleteAsync(id).thenApply(none -> (JobDefinition) null));
  }

  /**
   * Every job matching the filter as an import document, in id order, written as it is read: the
   * index is walked {@link JobCatalog#export a chunk at a time} and each job is serialised straight
   * to the response, so the node holds one chunk of jobs, not the export. {@code count} comes after
   * {@code jobs}, once it is known. A failure before the first bytes leave answers a problem as
   * usual; one after them cuts the document short (it no longer parses).
   */
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description = "the export document, streamed",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON_VALUE,
              schema = @Schema(implementation = ExportDocument.class)))
  @GetMapping(path = "/api/v1/job-export", produces = MediaType.APPLICATION_JSON_VALUE)
  void export(
      @RequestParam(required = false) String app,
      @RequestParam(required = false) String handler,
      @RequestParam(required = false) Boolean enabled,
      @RequestParam(name = "q", required = false) String text,
      @RequestParam(required = false) String idPrefix,
      HttpServletResponse response)
      throws IOException {
    if (!JobCatalog.Filter.acceptsIdPrefix(idPrefix)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "idPrefix", "must be 1-64 characters of [A-Za-z0-9_.-]");
    }
    JobCatalog.Filter filter =
        new JobCatalog.Filter(app, handler, enabled, text, idPrefix)
            .within(Callers.current().scope());
    boolean unmasked = ParamsRedaction.callerMayWrite();
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    JsonGenerator json =
        writer
            .getFactory()
            .createGenerator(response.getOutputStream())
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    try {
      json.writeStartObject();
      json.writeNumberField("formatVersion", ExportDocument.FORMAT_VERSION);
      json.writeNumberField("exportedAtMs", clock.nowMs());
      json.writeArrayFieldStart("jobs");
      long count =
          catalog.export(
              filter,
              job -> {
                try {
                  JobDefinition shown =
                      unmasked
                          ? job.toBuilder()
                              .params(store.secretParams().openIfPossible(job.id(), job.params()))
                              .build()
                          : job.toBuilder()
                              .params(ParamsRedaction.masked(job.handler(), job.params()))
                              .build();
                  writer.writeValue(json, JobRequest.of(shown));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      json.writeEndArray();
      json.writeNumberField("count", count);
      json.writeEndObject();
      json.close();
    } catch (UncheckedIOException e) {
      throw e.getCause(); // the client went away
    } catch (RuntimeException e) {
      if (!response.isCommitted()) {
        response.reset(); // nothing has left yet: the error handler answers a problem instead
      }
      throw e;
    }
  }

  /** Imports an export document; {@code dryRun=true} only reports what would change. */
  @PostMapping(path = "/api/v1/job-import", produces = MediaType.APPLICATION_JSON_VALUE)
  ImportResult importJobs(
      @RequestBody ExportDocument document, @RequestParam(defaultValue = "false") boolean dryRun) {
    List<JobDefinition> jobs = importer.check(document, limits.getMaxBatchSize());
    requireWritable(jobs);
    return importer.run(jobs, dryRun);
  }

  /**
   * Issues the jobs' writes with {@link WriteWindow#BULK_API} in flight at a time (pipelined, not a
   * round trip per job, yet never a whole batch ahead of the node's other Redis commands), then
   * collects the answers in order. The jobs are read first, in one pipelined round, for the audit
   * entries' definitions before; {@code op} answers the job after (null once deleted).
   */
  private BatchResult apply(
      String action,
      AuditAction audited,
      BatchRequest request,
      Function<String, CompletableFuture<JobDefinition>> op) {
    List<String> ids = checked(request);
    List<Optional<JobDefinition>> befores = store.getAll(ids);
    Set<String> outOfScope = outOfScope(ids, befores);
    Function<String, CompletableFuture<JobDefinition>> scoped =
        id ->
            outOfScope.contains(id)
                ? CompletableFuture.failedFuture(new JobNotFoundException(id))
                : op.apply(id);
    List<AuditTrail.JobChange> changes = new ArrayList<>(ids.size());
    List<CompletableFuture<JobDefinition>> writes =
        WriteWindow.start(
            ids,
            WriteWindow.BULK_API,
            scoped,
            failure -> !(failure instanceof JobNotFoundException));
    List<BatchResult.Item> items = new ArrayList<>(ids.size());
    int done = 0;
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      try {
        JobDefinition after = writes.get(i).join();
        items.add(new BatchResult.Item(id, "DONE", after == null ? null : after.version()));
        changes.add(new AuditTrail.JobChange(id, befores.get(i).orElse(null), after));
        done++;
      } catch (CompletionException e) {
        if (!(e.getCause() instanceof JobNotFoundException)) {
          throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        items.add(new BatchResult.Item(id, "NOT_FOUND", null));
      }
    }
    audit.jobs(audited, changes, "batch " + action);
    return new BatchResult(action, done, ids.size() - done, items);
  }

  /**
   * The ids of jobs outside the caller's apps: a batch answers them NOT_FOUND, as if they did not
   * exist, and leaves them alone; {@code jobs} are the ids' jobs as read before the batch.
   */
  private static Set<String> outOfScope(List<String> ids, List<Optional<JobDefinition>> jobs) {
    Access access = Callers.current();
    if (access.seesAllApps()) {
      return Set.of();
    }
    Set<String> refused = new HashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      if (jobs.get(i).map(j -> !access.canWrite(j.app())).orElse(false)) {
        refused.add(ids.get(i));
      }
    }
    return refused;
  }

  /**
   * An import writes only the caller's apps: each job's app, and the app of a job it would replace,
   * must be one the caller may write; otherwise nothing is imported (403 naming the job).
   */
  private void requireWritable(List<JobDefinition> jobs) {
    Access access = Callers.current();
    if (access.seesAllApps() && access.isAdmin()) {
      return;
    }
    List<Optional<JobDefinition>> existing =
        store.getAll(jobs.stream().map(JobDefinition::id).toList());
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      JobDefinition job = jobs.get(i);
      if (!access.canWrite(job.app())) {
        errors.add(
            new FieldError(
                "jobs[" + i + "].app", "this token may not write jobs of app " + job.app()));
      } else if (existing.get(i).map(j -> !access.canWrite(j.app())).orElse(false)) {
        errors.add(
            new FieldError(
                "jobs[" + i + "].id",
                "a job with this id exists in an app this token may not write"));
      }
    }
    if (!errors.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.FORBIDDEN,
          errors.size() + " job(s) outside this token's apps; nothing was imported",
          errors,
          Map.of());
    }
  }

  /** Every id checked before any is applied, so bad input changes nothing. */
  private List<String> checked(BatchRequest request) {
    if (request.ids() == null || request.ids().isEmpty()) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "ids", "must list at least one job id");
    }
    if (request.ids().size() > limits.getMaxBatchSize()) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "ids",
          "lists "
              + request.ids().size()
              + " ids; at most "
              + limits.getMaxBatchSize()
              + " per batch (kairos.api.max-batch-size)");
    }
    List<FieldError> errors = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < request.ids().size(); i++) {
      String id = request.ids().get(i);
      String field = "ids[" + i + "]";
      try {
        JobIds.checked(field, id);
      } catch (ApiProblemException e) {
        errors.addAll(e.errors());
        continue;
      }
      if (!seen.add(id)) {
        errors.add(new FieldError(field, "'" + id + "' appears twice"));
      }
    }
    if (!errors.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.INVALID_FIELD,
          errors.size() + " invalid id(s); nothing was changed",
          errors,
          Map.of());
    }
    return request.ids();
  }
}
