package dev.kairos.node.api.trigger;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.node.api.web.PageRequest;
import dev.kairos.node.api.web.TriggerIds;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Triggers: one by id (state history, executor, timings, result message) and a job's recent ones.
 * Trigger ids may contain {@code /} (retries) and {@code #} (broadcast shards), so the id is the
 * rest of the path: {@code /api/v1/triggers/job-1:1700000000000/r1}, with {@code #} sent as {@code
 * %23}.
 */
@RestController
class TriggerController {

  private final TriggerLookup lookup;
  private final JobStore store;
  private final ApiProperties limits;

  TriggerController(TriggerLookup lookup, JobStore store, ApiProperties limits) {
    this.lookup = lookup;
    this.store = store;
    this.limits = limits;
  }

  @GetMapping(path = "/api/v1/triggers/{*triggerId}", produces = MediaType.APPLICATION_JSON_VALUE)
  TriggerView get(@PathVariable String triggerId) {
    TriggerId id =
        TriggerIds.checked(
            "triggerId", triggerId.startsWith("/") ? triggerId.substring(1) : triggerId);
    return lookup
        .find(id)
        .orElseThrow(
            () ->
                new ApiProblemException(
                    ProblemType.TRIGGER_NOT_FOUND, "no trigger " + id + " in Redis or PostgreSQL"));
  }

  /** Newest scheduled fire first. */
  @GetMapping(path = "/api/v1/jobs/{id}/triggers", produces = MediaType.APPLICATION_JSON_VALUE)
  TriggerLookup.TriggerPage recent(
      @PathVariable String id,
      @RequestParam(required = false) Integer page,
      @RequestParam(required = false) Integer size) {
    JobIds.checked("id", id);
    PageRequest request = PageRequest.of(page, size, limits);
    if (store.get(id).isEmpty()) {
      throw new JobNotFoundException(id);
    }
    return lookup.recent(id, request.page(), request.size());
  }
}
