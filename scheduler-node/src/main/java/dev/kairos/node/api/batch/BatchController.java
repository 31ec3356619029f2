package dev.kairos.node.api.batch;

import dev.kairos.core.batch.WriteWindow;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.job.JobCatalog;
import dev.kairos.node.api.job.JobRequest;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Audit;
import dev.kairos.node.api.web.JobIds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

  BatchController(
      JobStore store,
      JobCatalog catalog,
      JobImporter importer,
      ClusterClock clock,
      ApiProperties limits) {
    this.store = store;
    this.catalog = catalog;
    this.importer = importer;
    this.clock = clock;
    this.limits = limits;
  }

  @PostMapping(path = "/api/v1/job-batches/enable", produces = MediaType.APPLICATION_JSON_VALUE)
  BatchResult enable(@RequestBody BatchRequest request) {
    return apply("enable", request, id -> store.enableAsync(id).thenApply(JobDefinition::version));
  }

  @PostMapping(path = "/api/v1/job-batches/disable", produces = MediaType.APPLICATION_JSON_VALUE)
  BatchResult disable(@RequestBody BatchRequest request) {
    return apply(
        "disable", request, id -> store.disableAsync(id).thenApply(JobDefinition::version));
  }

  @PostMapping(path = "/api/v1/job-batches/delete", produces = MediaType.APPLICATION_JSON_VALUE)
  BatchResult delete(@RequestBody BatchRequest request) {
    return apply("delete", request, id -> store.deleteAsync(id).thenApply(none -> null));
  }

  @GetMapping(path = "/api/v1/job-export", produces = MediaType.APPLICATION_JSON_VALUE)
  ExportDocument export(
      @RequestParam(required = false) String app,
      @RequestParam(required = false) String handler,
      @RequestParam(required = false) Boolean enabled,
      @RequestParam(name = "q", required = false) String text) {
    List<JobRequest> jobs =
        catalog.find(new JobCatalog.Filter(app, handler, enabled, text)).stream()
            .map(JobRequest::of)
            .toList();
    return new ExportDocument(ExportDocument.FORMAT_VERSION, clock.nowMs(), jobs.size(), jobs);
  }

  /** Imports an export document; {@code dryRun=true} only reports what would change. */
  @PostMapping(path = "/api/v1/job-import", produces = MediaType.APPLICATION_JSON_VALUE)
  ImportResult importJobs(
      @RequestBody ExportDocument document, @RequestParam(defaultValue = "false") boolean dryRun) {
    List<JobDefinition> jobs = importer.check(document, limits.getMaxBatchSize());
    return importer.run(jobs, dryRun);
  }

  /**
   * Issues the jobs' writes with {@link WriteWindow#BULK_API} in flight at a time (pipelined, not a
   * round trip per job, yet never a whole batch ahead of the node's other Redis commands), then
   * collects the answers in order.
   */
  private BatchResult apply(
      String action, BatchRequest request, Function<String, CompletableFuture<Long>> op) {
    List<String> ids = checked(request);
    List<CompletableFuture<Long>> writes =
        WriteWindow.start(
            ids, WriteWindow.BULK_API, op, failure -> !(failure instanceof JobNotFoundException));
    List<BatchResult.Item> items = new ArrayList<>(ids.size());
    int done = 0;
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      try {
        Long version = writes.get(i).join();
        items.add(new BatchResult.Item(id, "DONE", version));
        done++;
      } catch (CompletionException e) {
        if (!(e.getCause() instanceof JobNotFoundException)) {
          throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        items.add(new BatchResult.Item(id, "NOT_FOUND", null));
      }
    }
    Audit.action("batch " + action, done + " of " + ids.size() + " jobs: " + ids);
    return new BatchResult(action, done, ids.size() - done, items);
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
