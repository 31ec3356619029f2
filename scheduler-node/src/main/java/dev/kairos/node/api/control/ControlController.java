package dev.kairos.node.api.control;

import dev.kairos.audit.AuditAction;
import dev.kairos.coordinator.pause.ClusterPause;
import dev.kairos.coordinator.pause.PauseState;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.store.JobStore;
import dev.kairos.node.api.audit.Actor;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.TriggerIds;
import dev.kairos.node.lifecycle.guard.CancelOutcome;
import dev.kairos.node.lifecycle.guard.TriggerCanceller;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator's brakes: cancel one trigger, pause and resume all scheduling. Thin: the work is
 * {@link TriggerCanceller} and {@link ClusterPause}; docs/architecture.md ("Lost triggers, cancel
 * and pause") says what each does. Trigger ids may contain {@code /} (retries) and {@code #}
 * (broadcast shards, sent as {@code %23}), and a path variable cannot be followed by more path, so
 * the cancel mapping takes the rest of the path and requires it to end in {@code /cancel}.
 */
@RestController
class ControlController {

  private static final String TRIGGERS = "/api/v1/triggers/";
  private static final String CANCEL_SUFFIX = "/cancel";
  private static final String PAUSE = "/api/v1/cluster/pause";

  private final TriggerCanceller canceller;
  private final AdhocTriggers adhoc;
  private final ClusterPause pause;
  private final JobStore jobs;
  private final AuditTrail audit;

  ControlController(
      TriggerCanceller canceller,
      AdhocTriggers adhoc,
      ClusterPause pause,
      JobStore jobs,
      AuditTrail audit) {
    this.canceller = canceller;
    this.adhoc = adhoc;
    this.pause = pause;
    this.jobs = jobs;
    this.audit = audit;
  }

  /**
   * 200 CANCELLED (it had not started and never will), 202 CANCEL_REQUESTED (it is running: its
   * executor interrupts the handler and records CANCELLED, which {@code GET} on the Location
   * shows).
   */
  @ApiResponses({
    @ApiResponse(responseCode = "200", description = "CANCELLED: it had not started"),
    @ApiResponse(
        responseCode = "202",
        description = "CANCEL_REQUESTED: it runs; its executor interrupts it")
  })
  @PostMapping(path = TRIGGERS + "{*path}", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<CancelView> cancel(@PathVariable String path)
      throws HttpRequestMethodNotSupportedException {
    String rest = path.startsWith("/") ? path.substring(1) : path;
    if (!rest.endsWith(CANCEL_SUFFIX)) {
      // Any other path here names a trigger (ids contain '/'), and a trigger is only read: the
      // same 405 the GET mapping alone gave before this mapping existed.
      throw new HttpRequestMethodNotSupportedException("POST", List.of("GET"));
    }
    TriggerId id =
        TriggerIds.checked("triggerId", rest.substring(0, rest.length() - CANCEL_SUFFIX.length()));
    Callers.requireWriteOfJob(
        jobs,
        id.jobId(),
        () -> new ApiProblemException(ProblemType.TRIGGER_NOT_FOUND, "no trigger " + id));
    // Asked first, and race-free: the claim that ends the wait creates the record in the same
    // script, so a trigger not waiting here either has a record for the cancel or never existed.
    OptionalLong waitingDue = adhoc.waitingDueMs(id);
    if (waitingDue.isPresent()) {
      throw new ApiProblemException(
          ProblemType.TRIGGER_WAITING,
          "trigger "
              + id
              + " waits to be claimed (due at "
              + waitingDue.getAsLong()
              + " ms, or at the resume while scheduling is paused) and has no record to cancel"
              + " yet; cancel it once GET shows it",
          List.of(),
          Map.of("triggerId", id.value(), "dueMs", waitingDue.getAsLong()));
    }
    CancelOutcome outcome = canceller.cancel(id.value(), Actor.current().name());
    CancelView view = CancelView.of(id.value(), outcome);
    URI location = URI.create(TRIGGERS + id.value().replace("#", "%23"));
    return switch (outcome.kind()) {
      case CANCELLED -> {
        audit.trigger(
            AuditAction.TRIGGER_CANCELLED, appOf(id), id.jobId(), id.value(), "before it started");
        yield ResponseEntity.ok().location(location).body(view);
      }
      case CANCEL_REQUESTED -> {
        audit.trigger(
            AuditAction.TRIGGER_CANCEL_REQUESTED,
            appOf(id),
            id.jobId(),
            id.value(),
            "running on executor " + outcome.executor() + ", which interrupts it");
        yield ResponseEntity.accepted().location(location).body(view);
      }
      case ALREADY_FINAL ->
          throw new ApiProblemException(
              ProblemType.TRIGGER_FINAL,
              "trigger " + id + " already ended " + outcome.stateFound() + "; nothing changed",
              List.of(),
              Map.of("triggerId", id.value(), "state", outcome.stateFound()));
      case NOT_FOUND ->
          throw new ApiProblemException(
              ProblemType.TRIGGER_NOT_FOUND,
              "no trigger "
                  + id
                  + " in Redis: it never existed, or its record expired after the dedup window"
                  + " (GET shows its history)",
              List.of(),
              Map.of("triggerId", id.value()));
    };
  }

  @GetMapping(path = PAUSE, produces = MediaType.APPLICATION_JSON_VALUE)
  PauseView paused() {
    return PauseView.of(pause.state());
  }

  /** Idempotent: pausing a paused cluster keeps the first pause's time and author. */
  @PostMapping(path = PAUSE, produces = MediaType.APPLICATION_JSON_VALUE)
  PauseView pause() {
    PauseState state = pause.pause(Actor.current().name());
    audit.action(
        AuditAction.CLUSTER_PAUSED,
        null,
        "paused since " + state.sinceMs() + " ms by " + state.by());
    return PauseView.of(state);
  }

  /** Idempotent: resuming a running cluster changes nothing. */
  @PostMapping(path = "/api/v1/cluster/resume", produces = MediaType.APPLICATION_JSON_VALUE)
  PauseView resume() {
    PauseState state = pause.resume(Actor.current().name());
    audit.action(AuditAction.CLUSTER_RESUMED, null, "");
    return PauseView.of(state);
  }

  /** The app of the trigger's job, for the audit entry; null once the job is gone. */
  private String appOf(TriggerId id) {
    return jobs.get(id.jobId()).map(JobDefinition::app).orElse(null);
  }
}
