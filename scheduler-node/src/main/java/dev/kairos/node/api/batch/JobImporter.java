package dev.kairos.node.api.batch;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.batch.WriteWindow;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.store.JobAlreadyExistsException;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.store.JobVersionConflictException;
import dev.kairos.core.validation.JobValidator;
import dev.kairos.core.validation.ValidationProblem;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.calendar.CalendarReferences;
import dev.kairos.node.api.job.ExecutorWarnings;
import dev.kairos.node.api.job.JobRequest;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.IntStream;

/**
 * Imports jobs keyed by their user-supplied id, idempotently: a job that does not exist is created,
 * one that differs is updated (at the version read for the plan), one stored exactly as imported is
 * left alone, so importing the same document twice writes nothing the second time. Every job is
 * validated before anything is written: one invalid job rejects the whole import with every problem
 * named ({@code jobs[3].schedule}).
 */
public final class JobImporter {

  private final JobStore store;
  private final ExecutorWarnings warnings;
  private final AuditTrail audit;
  private final JobValidator validator = new JobValidator();
  private final CalendarReferences calendars;

  public JobImporter(
      JobStore store, ExecutorWarnings warnings, AuditTrail audit, CalendarReferences calendars) {
    this.store = store;
    this.calendars = calendars;
    this.warnings = warnings;
    this.audit = audit;
  }

  /**
   * The definitions of the document, in order.
   *
   * @throws ApiProblemException naming every invalid field; nothing is written
   */
  public List<JobDefinition> check(ExportDocument doc, int maxJobs) {
    if (doc.formatVersion() == null) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          "formatVersion",
          "is required: "
              + ExportDocument.FORMAT_VERSION
              + " for a document of GET /api/v1/job-export");
    }
    if (doc.formatVersion() != ExportDocument.FORMAT_VERSION) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          "formatVersion",
          "must be " + ExportDocument.FORMAT_VERSION + " but was " + doc.formatVersion());
    }
    if (doc.jobs() == null) {
      throw ApiProblemException.field(ProblemType.INVALID_FIELD, "jobs", "is required");
    }
    if (doc.jobs().size() > maxJobs) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "jobs",
          "holds "
              + doc.jobs().size()
              + " jobs; at most "
              + maxJobs
              + " per import (kairos.api.max-batch-size)");
    }
    List<FieldError> errors = new ArrayList<>();
    List<JobDefinition> jobs = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < doc.jobs().size(); i++) {
      JobRequest request = doc.jobs().get(i);
      String prefix = "jobs[" + i + "].";
      if (request == null) {
        errors.add(new FieldError("jobs[" + i + "]", "must be a job, not null"));
        continue;
      }
      JobDefinition job = request.toDefinition(request.id());
      for (ValidationProblem p : validator.validate(job)) {
        errors.add(new FieldError(prefix + p.field(), p.message()));
      }
      errors.addAll(calendars.unknown(job, prefix));
      if (request.id() != null && !seen.add(request.id())) {
        errors.add(new FieldError(prefix + "id", "'" + request.id() + "' appears twice"));
      }
      jobs.add(job);
    }
    if (!errors.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.VALIDATION_FAILED,
          errors.size() + " problem(s) in the import; nothing was imported",
          errors,
          Map.of());
    }
    return jobs;
  }

  /**
   * Applies the plan: the current definitions are read in one pipelined round and the new jobs
   * created with {@link WriteWindow#BULK_API} scripts in flight at a time (so the node's other
   * Redis commands never queue behind a whole import), plus one round trip per updated job.
   */
  public ImportResult run(List<JobDefinition> jobs, boolean dryRun) {
    ExecutorWarnings.Checker checker = warnings.checker();
    List<Optional<JobDefinition>> currents =
        store.getAll(jobs.stream().map(JobDefinition::id).toList());
    List<Integer> toCreate =
        dryRun
            ? List.of()
            : IntStream.range(0, jobs.size())
                .filter(i -> currents.get(i).isEmpty())
                .boxed()
                .toList();
    List<CompletableFuture<JobDefinition>> started =
        WriteWindow.start(
            toCreate,
            WriteWindow.BULK_API,
            i -> store.createAsync(jobs.get(i)),
            failure -> !(failure instanceof JobAlreadyExistsException));
    List<CompletableFuture<JobDefinition>> creates = new ArrayList<>(jobs.size());
    jobs.forEach(job -> creates.add(null));
    for (int k = 0; k < toCreate.size(); k++) {
      creates.set(toCreate.get(k), started.get(k));
    }
    List<ImportResult.Item> items = new ArrayList<>();
    List<AuditTrail.JobChange> written = new ArrayList<>();
    int created = 0;
    int updated = 0;
    int unchanged = 0;
    int conflicts = 0;
    for (int i = 0; i < jobs.size(); i++) {
      JobDefinition job = jobs.get(i);
      Optional<JobDefinition> current = currents.get(i);
      ImportResult.Item item;
      if (current.isPresent() && sameDefinition(current.get(), store.sealed(job))) {
        item = new ImportResult.Item(job.id(), "UNCHANGED", false, null, null);
      } else if (dryRun) {
        item =
            new ImportResult.Item(
                job.id(),
                current.isPresent() ? "UPDATE" : "CREATE",
                false,
                null,
                checker.check(job));
      } else if (creates.get(i) != null) {
        item = created(job, creates.get(i), checker, written);
      } else {
        item = updated(job, current.get(), checker, written);
      }
      switch (item.action()) {
        case "CREATE" -> created++;
        case "UPDATE" -> updated++;
        case "UNCHANGED" -> unchanged++;
        default -> conflicts++;
      }
      items.add(item);
    }
    audit.jobs(
        AuditAction.JOB_IMPORTED,
        written,
        "import: "
            + created
            + " created, "
            + updated
            + " updated, "
            + unchanged
            + " unchanged, "
            + conflicts
            + " conflicts");
    return new ImportResult(dryRun, created, updated, unchanged, conflicts, items);
  }

  private ImportResult.Item created(
      JobDefinition job,
      CompletableFuture<JobDefinition> create,
      ExecutorWarnings.Checker checker,
      List<AuditTrail.JobChange> written) {
    JobDefinition stored;
    try {
      stored = create.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof JobAlreadyExistsException) {
        // Someone else created the job between the plan and the write; theirs stands.
        return new ImportResult.Item(job.id(), "CONFLICT", false, null, null);
      }
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
    written.add(new AuditTrail.JobChange(job.id(), null, stored));
    return new ImportResult.Item(job.id(), "CREATE", true, stored.version(), checker.check(stored));
  }

  private ImportResult.Item updated(
      JobDefinition job,
      JobDefinition current,
      ExecutorWarnings.Checker checker,
      List<AuditTrail.JobChange> written) {
    try {
      JobDefinition stored = store.update(job, current.version());
      written.add(new AuditTrail.JobChange(job.id(), current, stored));
      return new ImportResult.Item(
          job.id(), "UPDATE", true, stored.version(), checker.check(stored));
    } catch (JobVersionConflictException | JobNotFoundException e) {
      // Someone else wrote the job between the plan and the write; theirs stands.
      return new ImportResult.Item(job.id(), "CONFLICT", false, null, null);
    }
  }

  /**
   * Equal in everything a user defines (versions and timestamps are the store's); {@code imported}
   * sealed as the store would write it.
   */
  static boolean sameDefinition(JobDefinition stored, JobDefinition imported) {
    return JobRequest.of(stored).equals(JobRequest.of(imported));
  }
}
