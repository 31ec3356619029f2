package dev.kairos.node.api.job;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.calendar.ExclusionCalendar;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobId;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.schedule.CronDialect;
import dev.kairos.core.schedule.InvalidScheduleException;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import dev.kairos.core.store.AppSettingsStore;
import dev.kairos.core.store.JobAlreadyExistsException;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.validation.JobValidator;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.calendar.CalendarReferences;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.FieldError;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.security.ApiSecurityConfiguration;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.node.api.web.ListCursor;
import dev.kairos.node.api.web.PageRequest;
import dev.kairos.node.api.web.Versions;
import dev.kairos.protocol.adhoc.AdhocRequest;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
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
 * Jobs: create, read, list, full update with optimistic concurrency, delete, enable, disable, copy,
 * trigger now, and previews of fire times (of a stored job, and of a schedule not saved yet).
 * Writes go straight to the Redis job store (write-through); each answers with the job as stored,
 * its ETag (the version) and warnings.
 */
@RestController
class JobController {

  static final String JOBS = "/api/v1/jobs";
  private static final int DEFAULT_PREVIEW_COUNT = 10;

  /** Ids a copy without one tries: {@code <id>-copy}, then {@code <id>-copy-2} and so on. */
  static final int COPY_ID_ATTEMPTS = 20;

  private final JobStore store;
  private final AdhocTriggers adhoc;
  private final JobCatalog catalog;
  private final ExecutorWarnings warnings;
  private final ClusterClock clock;
  private final ApiProperties limits;
  private final AppSettingsStore apps;
  private final AuditTrail audit;
  private final CalendarReferences calendars;

  JobController(
      JobStore store,
      AppSettingsStore apps,
      AdhocTriggers adhoc,
      JobCatalog catalog,
      ExecutorWarnings warnings,
      ClusterClock clock,
      ApiProperties limits,
      AuditTrail audit,
      CalendarReferences calendars) {
    this.store = store;
    this.calendars = calendars;
    this.audit = audit;
    this.apps = apps;
    this.adhoc = adhoc;
    this.catalog = catalog;
    this.warnings = warnings;
    this.clock = clock;
    this.limits = limits;
  }

  @ApiResponse(responseCode = "201", description = "created; Location and ETag name it")
  @PostMapping(path = JOBS, produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JobView> create(@RequestBody JobRequest request) {
    JobDefinition job = request.toDefinition(request.id());
    Callers.requireWriteNew(job.app(), "app");
    if (request.routing() == null) {
      // Created without a routing: its app's default (PUT /api/v1/apps/{app}), else the global.
      job = job.toBuilder().routing(apps.defaultRoutingOf(job.app())).build();
    }
    calendars.check(job);
    JobDefinition stored = store.create(job);
    audit.job(AuditAction.JOB_CREATED, null, stored, "");
    return ResponseEntity.created(URI.create(JOBS + "/" + stored.id()))
        .eTag(Versions.etag(stored.version()))
        .body(written(stored));
  }

  /**
   * Jobs sorted by id, a page at a time: by cursor ({@code nextCursor} of the previous page), or by
   * page number ({@code page}, offset paging: each page costs what it skips).
   */
  @GetMapping(path = JOBS, produces = MediaType.APPLICATION_JSON_VALUE)
  JobPage list(
      @RequestParam(required = false) String app,
      @RequestParam(required = false) String handler,
      @RequestParam(required = false) Boolean enabled,
      @RequestParam(name = "q", required = false) String text,
      @RequestParam(required = false) String idPrefix,
      @RequestParam(required = false) Integer page,
      @RequestParam(required = false) Integer size,
      @RequestParam(required = false) String cursor) {
    PageRequest request = PageRequest.of(page, size, limits);
    if (cursor != null && !cursor.isEmpty() && page != null) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "cursor", "give either cursor or page, not both");
    }
    String after = ListCursor.decode("cursor", cursor);
    if (!JobCatalog.Filter.acceptsIdPrefix(idPrefix)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "idPrefix", "must be 1-64 characters of [A-Za-z0-9_.-]");
    }
    JobCatalog.Filter filter =
        new JobCatalog.Filter(app, handler, enabled, text, idPrefix)
            .within(Callers.current().scope());
    int budget = limits.getJobScanBudget();
    JobCatalog.Listing listing =
        catalog.page(filter, after, request.offset(), request.size(), budget);
    if (!listing.offsetReached()) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "page",
          "page "
              + request.page()
              + " lies beyond the "
              + budget
              + " jobs one request may test against handler, enabled or q"
              + " (kairos.api.job-scan-budget); page with cursor (nextCursor) instead");
    }
    List<JobView> items =
        listing.jobs().stream()
            .map(j -> JobView.of(j, listing.nextFires().get(j.id()), null, store.secretParams()))
            .toList();
    return new JobPage(
        items,
        after == null ? request.page() : null,
        request.size(),
        listing.total(),
        listing.total() != null,
        ListCursor.encode(listing.after()));
  }

  @GetMapping(path = JOBS + "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JobView> get(@PathVariable String id) {
    JobDefinition job = find(id);
    return ResponseEntity.ok()
        .eTag(Versions.etag(job.version()))
        .body(JobView.of(job, catalog.nextFire(id), null, store.secretParams()));
  }

  /**
   * Replaces the definition. The version it applies to comes from {@code If-Match} or the body's
   * {@code version}; without either the write is refused (428), since a blind overwrite would undo
   * someone else's change silently.
   */
  @PutMapping(path = JOBS + "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JobView> update(
      @PathVariable String id,
      @RequestHeader(name = Versions.IF_MATCH, required = false) String ifMatch,
      @RequestBody JobRequest request) {
    JobIds.checked("id", id);
    if (request.id() != null && !request.id().equals(id)) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          "id",
          "must be absent or equal to the path's job id '" + id + "'; ids cannot be changed");
    }
    // Both the app it is in and the app it moves to must be the caller's (a job of another app
    // does not exist for it, whatever the request says); the version check of the write catches
    // a move by someone else in between.
    JobDefinition before = findWritable(id);
    long expected = expectedVersion(ifMatch, request.version());
    JobDefinition wanted = request.toDefinition(id);
    Callers.requireWriteNew(wanted.app(), "app");
    // The definition the update replaces, for the audit entry: the update applies only at the
    // expected version, so a conflict refuses it and nothing is recorded.
    calendars.check(wanted);
    JobDefinition stored = store.update(wanted, expected);
    audit.job(AuditAction.JOB_UPDATED, before, stored, "");
    return ResponseEntity.ok().eTag(Versions.etag(stored.version())).body(written(stored));
  }

  /** Deletes the job; with {@code If-Match} only if it is still at that version. */
  @ApiResponse(responseCode = "204", description = "deleted")
  @DeleteMapping(path = JOBS + "/{id}")
  ResponseEntity<Void> delete(
      @PathVariable String id,
      @RequestHeader(name = Versions.IF_MATCH, required = false) String ifMatch) {
    JobDefinition before = findWritable(id); // also the audit entry's definition before
    OptionalLong expected = Versions.ifMatch(ifMatch);
    if (expected.isPresent()) {
      store.delete(id, expected.getAsLong());
    } else {
      store.delete(id);
    }
    audit.jobs(AuditAction.JOB_DELETED, List.of(new AuditTrail.JobChange(id, before, null)), "");
    return ResponseEntity.noContent().build();
  }

  @PostMapping(path = JOBS + "/{id}/enable", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JobView> enable(@PathVariable String id) {
    JobDefinition before = findWritable(id);
    JobDefinition job = store.enable(id);
    audit.job(AuditAction.JOB_ENABLED, before, job, "");
    return ResponseEntity.ok().eTag(Versions.etag(job.version())).body(written(job));
  }

  @PostMapping(path = JOBS + "/{id}/disable", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JobView> disable(@PathVariable String id) {
    JobDefinition before = findWritable(id);
    JobDefinition job = store.disable(id);
    audit.job(AuditAction.JOB_DISABLED, before, job, "");
    return ResponseEntity.ok()
        .eTag(Versions.etag(job.version()))
        .body(JobView.of(job, catalog.nextFire(id), List.of(), store.secretParams()));
  }

  /**
   * Copies a job: a new job with the same definition under another id, created disabled (it runs
   * only once someone enables it) at version 1. Answers 201 like create. Without an id in the body
   * the copy is {@code <id>-copy}, or the first of {@code <id>-copy-2} ... {@code <id>-copy-20} not
   * taken (the source id shortened to fit 64 characters).
   */
  @ApiResponse(responseCode = "201", description = "copied; Location and ETag name the copy")
  @PostMapping(path = JOBS + "/{id}/copy", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JobView> copy(
      @PathVariable String id, @RequestBody(required = false) CopyJobRequest request) {
    JobDefinition sealed = findWritable(id);
    // Sealed secrets are bound to their job's id: the copy gets them opened, to be sealed for it.
    JobDefinition source =
        sealed.toBuilder().params(store.secretParams().openIfPossible(id, sealed.params())).build();
    String wanted = request == null ? null : request.id();
    JobDefinition stored = null;
    if (wanted != null) {
      stored = store.create(source.toBuilder().id(wanted).enabled(false).build());
    } else {
      for (int n = 1; stored == null; n++) {
        try {
          stored = store.create(source.toBuilder().id(copyId(id, n)).enabled(false).build());
        } catch (JobAlreadyExistsException e) {
          if (n == COPY_ID_ATTEMPTS) {
            throw e;
          }
        }
      }
    }
    audit.job(AuditAction.JOB_COPIED, null, stored, "copy of " + id + ", disabled");
    return ResponseEntity.created(URI.create(JOBS + "/" + stored.id()))
        .eTag(Versions.etag(stored.version()))
        .body(written(stored));
  }

  /** The {@code n}-th id a copy of {@code source} tries. */
  static String copyId(String source, int n) {
    String suffix = n == 1 ? "-copy" : "-copy-" + n;
    int room = JobId.MAX_LENGTH - suffix.length();
    return (source.length() > room ? source.substring(0, room) : source) + suffix;
  }

  /**
   * "Trigger now": one extra run of the job, due at once, optionally with other params and on a
   * chosen executor slot. Answers 202 with the new trigger's id; the trigger record appears when
   * the leader claims it.
   */
  @ApiResponse(responseCode = "202", description = "accepted; the next scan claims it")
  @PostMapping(path = JOBS + "/{id}/trigger", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<TriggerNowResponse> triggerNow(
      @PathVariable String id, @RequestBody(required = false) TriggerNowRequest request) {
    findWritable(id);
    // Sealed like the job's own params: the ad-hoc trigger's record and message hold them.
    Optional<String> params =
        Optional.ofNullable(request == null ? null : request.params())
            .map(p -> store.secretParams().seal(id, p));
    Integer slot = request == null ? null : request.slot();
    if (slot != null && (slot < 0 || slot > AdhocRequest.MAX_SLOT)) {
      throw ApiProblemException.field(
          ProblemType.VALIDATION_FAILED,
          "slot",
          "must be an executor slot in 0.." + AdhocRequest.MAX_SLOT + " but was " + slot);
    }
    TriggerId trigger =
        adhoc.triggerNow(id, params, slot == null ? OptionalInt.empty() : OptionalInt.of(slot));
    audit.trigger(
        AuditAction.JOB_TRIGGERED,
        store.get(id).map(JobDefinition::app).orElse(null),
        id,
        trigger.value(),
        (params.isPresent() ? "with overridden params" : "")
            + (slot != null ? (params.isPresent() ? ", " : "") + "on slot " + slot : ""));
    return ResponseEntity.accepted()
        .location(URI.create("/api/v1/triggers/" + trigger.value()))
        .body(new TriggerNowResponse(trigger.value(), id, params.isPresent(), slot));
  }

  /** The next fire times of a stored job's schedule, from now. */
  @GetMapping(path = JOBS + "/{id}/next-fires", produces = MediaType.APPLICATION_JSON_VALUE)
  FirePreview.Result nextFires(
      @PathVariable String id, @RequestParam(required = false) Integer count) {
    int n = previewCount(count);
    JobDefinition job = find(id);
    return FirePreview.of(
        job.schedule(),
        job.zoneId(),
        clock.nowMs(),
        n,
        job.calendars(),
        calendars.compiled(job.calendars()));
  }

  /** The next fire times of a schedule that is not saved yet: check a cron before saving it. */
  @PostMapping(
      path = ApiSecurityConfiguration.PREVIEW_PATH,
      produces = MediaType.APPLICATION_JSON_VALUE)
  FirePreview.Result preview(@RequestBody SchedulePreviewRequest request) {
    int n = previewCount(request.count());
    List<FieldError> problems = new ArrayList<>();
    if (request.scheduleType() == null) {
      problems.add(new FieldError(JobFields.SCHEDULE_TYPE, "is required"));
    }
    ZoneId zone = null;
    try {
      zone = Schedules.zone(request.zone() == null ? JobDefinition.DEFAULT_ZONE : request.zone());
    } catch (InvalidScheduleException e) {
      problems.add(new FieldError(JobFields.ZONE, e.getMessage()));
    }
    long from = request.fromMs() != null ? request.fromMs() : clock.nowMs();
    Schedule schedule = null;
    if (request.scheduleType() != null) {
      try {
        schedule =
            Schedules.parse(
                request.scheduleType(),
                request.schedule() == null ? "" : request.schedule(),
                zone != null ? zone : ZoneId.of("UTC"),
                request.cronDialect() == null ? CronDialect.DEFAULT : request.cronDialect(),
                from);
      } catch (InvalidScheduleException e) {
        problems.add(new FieldError(JobFields.SCHEDULE, e.getMessage()));
      }
    }
    List<String> names = request.calendars() == null ? List.of() : request.calendars();
    Map<String, ExclusionCalendar> found = Map.of();
    if (!names.isEmpty()) {
      JobDefinition probe = JobDefinition.builder("preview").calendars(names).build();
      new JobValidator()
          .validate(probe).stream()
              .filter(p -> p.field().equals(JobFields.CALENDARS))
              .forEach(p -> problems.add(new FieldError(p.field(), p.message())));
      if (problems.stream().noneMatch(p -> p.field().equals(JobFields.CALENDARS))) {
        problems.addAll(calendars.unknown(probe, ""));
        found = calendars.compiled(names);
      }
    }
    if (!problems.isEmpty()) {
      throw new ApiProblemException(
          ProblemType.VALIDATION_FAILED,
          "the schedule is invalid: "
              + problems.stream().map(p -> p.field() + ": " + p.message()).toList(),
          problems,
          Map.of());
    }
    if (request.scheduleType() == ScheduleType.API) {
      return new FirePreview.Result(
          from, zone.getId(), null, List.of(), "an API job fires only when triggered");
    }
    return FirePreview.of(schedule, zone, from, n, names, found);
  }

  private int previewCount(Integer count) {
    int n = count == null ? Math.min(DEFAULT_PREVIEW_COUNT, limits.getMaxPreviewCount()) : count;
    if (n < 1) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "count", "must be >= 1 but was " + n);
    }
    if (n > limits.getMaxPreviewCount()) {
      throw ApiProblemException.field(
          ProblemType.LIMIT_EXCEEDED,
          "count",
          "must be at most "
              + limits.getMaxPreviewCount()
              + " (kairos.api.max-preview-count) but was "
              + n);
    }
    return n;
  }

  private static long expectedVersion(String ifMatch, Long bodyVersion) {
    OptionalLong header = Versions.ifMatch(ifMatch);
    if (header.isPresent() && bodyVersion != null && bodyVersion != header.getAsLong()) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          "version",
          "is " + bodyVersion + " but If-Match names version " + header.getAsLong());
    }
    if (header.isPresent()) {
      return header.getAsLong();
    }
    if (bodyVersion != null) {
      if (bodyVersion < 1) {
        throw ApiProblemException.field(
            ProblemType.INVALID_FIELD, "version", "must be >= 1 but was " + bodyVersion);
      }
      return bodyVersion;
    }
    throw ApiProblemException.field(
        ProblemType.PRECONDITION_REQUIRED,
        Versions.IF_MATCH,
        "send If-Match with the job's ETag (or \"version\" in the body)");
  }

  /** The job, if it exists and the caller may read its app (otherwise it does not exist). */
  private JobDefinition find(String id) {
    JobIds.checked("id", id);
    JobDefinition job = store.get(id).orElseThrow(() -> new JobNotFoundException(id));
    Callers.requireRead(job.app(), () -> new JobNotFoundException(id));
    return job;
  }

  /** As {@link #find}, and the caller may change its app's jobs (403 otherwise). */
  private JobDefinition findWritable(String id) {
    JobDefinition job = find(id);
    Callers.requireWrite(job.app(), () -> new JobNotFoundException(id));
    return job;
  }

  private JobView written(JobDefinition job) {
    return JobView.of(job, catalog.nextFire(job.id()), warnings.check(job), store.secretParams());
  }
}
