package dev.kairos.node.api.trigger;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.node.api.web.PageRequest;
import dev.kairos.node.api.web.TriggerIds;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Triggers: one by id (state history, executor, timings, result message), its handler log, and a
 * job's recent ones. Trigger ids may contain {@code /} (retries) and {@code #} (broadcast shards),
 * so the id is the rest of the path: {@code /api/v1/triggers/job-1:1700000000000/r1}, with {@code
 * #} sent as {@code %23}.
 */
@RestController
class TriggerController {

  private static final String LOG_SUFFIX = "/log";

  private final TriggerLookup lookup;
  private final TriggerLogReader logs;
  private final JobStore store;
  private final ApiProperties limits;

  TriggerController(
      TriggerLookup lookup, TriggerLogReader logs, JobStore store, ApiProperties limits) {
    this.lookup = lookup;
    this.logs = logs;
    this.store = store;
    this.limits = limits;
  }

  /**
   * {@code GET /api/v1/triggers/{triggerId}}, and {@code GET /api/v1/triggers/{triggerId}/log}: one
   * mapping, because a trigger id may contain '/' and a path variable cannot be followed by more
   * path. No trigger id ends in {@code /log} (see {@link TriggerId}).
   */
  @ApiResponse(
      responseCode = "200",
      description = "the trigger",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON_VALUE,
              schema = @Schema(implementation = TriggerView.class)))
  @GetMapping(path = "/api/v1/triggers/{*triggerId}", produces = MediaType.APPLICATION_JSON_VALUE)
  Object get(
      @PathVariable String triggerId,
      @RequestParam(required = false) String after,
      @RequestParam(required = false) String limit) {
    String rest = triggerId.startsWith("/") ? triggerId.substring(1) : triggerId;
    if (rest.endsWith(LOG_SUFFIX)) {
      return log(rest.substring(0, rest.length() - LOG_SUFFIX.length()), after, limit);
    }
    TriggerId id = TriggerIds.checked("triggerId", rest);
    Callers.requireReadOfJob(store, id.jobId(), () -> notFound(id));
    return lookup.find(id).orElseThrow(() -> notFound(id));
  }

  /** The handler log after cursor {@code after} (a line's seq; 0 or absent: from the start). */
  private TriggerLogPage log(String triggerId, String after, String limit) {
    TriggerId id = TriggerIds.checked("triggerId", triggerId);
    Callers.requireReadOfJob(store, id.jobId(), () -> notFound(id));
    long cursor = number("after", after, 0, Long.MAX_VALUE, 0);
    int size =
        (int) number("limit", limit, 1, TriggerLogReader.MAX_LIMIT, TriggerLogReader.DEFAULT_LIMIT);
    return logs.read(id, cursor, size).orElseThrow(() -> notFound(id));
  }

  private static long number(String field, String text, long min, long max, long absent) {
    if (text == null || text.isEmpty()) {
      return absent;
    }
    try {
      long value = Long.parseLong(text);
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiProblemException.field(
        ProblemType.INVALID_FIELD,
        field,
        "must be a whole number in "
            + min
            + ".."
            + max
            + " but was '"
            + (text.length() > 40 ? text.substring(0, 37) + "..." : text)
            + "'");
  }

  private static ApiProblemException notFound(TriggerId id) {
    return new ApiProblemException(
        ProblemType.TRIGGER_NOT_FOUND, "no trigger " + id + " in Redis or PostgreSQL");
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
    Callers.requireReadOfJob(store, id, () -> new JobNotFoundException(id));
    return lookup.recent(id, request.page(), request.size());
  }
}
