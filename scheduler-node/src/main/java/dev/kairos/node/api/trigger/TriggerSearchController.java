package dev.kairos.node.api.trigger;

import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.node.api.ApiProperties;
import dev.kairos.node.api.history.HistoryAccess;
import dev.kairos.node.api.history.HistoryParams;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.node.api.web.Page;
import dev.kairos.node.api.web.PageRequest;
import dev.kairos.sync.history.read.HistoryReader;
import dev.kairos.sync.history.read.TriggerSearch;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Trigger search across jobs, from the PostgreSQL history (behind Redis by the sync lag): by app,
 * job, states, scheduled fire time range and text in the result message; newest fire first. Its own
 * path beside {@code /api/v1/triggers/{id}}, whose id is the rest of the path.
 */
@RestController
class TriggerSearchController {

  private final HistoryAccess history;
  private final ApiProperties limits;
  private final JobStore store;

  TriggerSearchController(HistoryAccess history, ApiProperties limits, JobStore store) {
    this.history = history;
    this.limits = limits;
    this.store = store;
  }

  @GetMapping(path = "/api/v1/trigger-search", produces = MediaType.APPLICATION_JSON_VALUE)
  Page<TriggerView> search(
      @RequestParam(required = false) String app,
      @RequestParam(required = false) String jobId,
      @RequestParam(required = false) List<String> state,
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to,
      @RequestParam(required = false) String text,
      @RequestParam(required = false) Integer page,
      @RequestParam(required = false) Integer size) {
    String job = jobId == null || jobId.isBlank() ? null : JobIds.checked("jobId", jobId);
    String checkedApp;
    if (job != null && app == null) {
      Callers.requireReadOfJob(store, job, () -> new JobNotFoundException(job));
      checkedApp = null;
    } else {
      checkedApp = Callers.appOfQuery(HistoryParams.app(app));
    }
    List<String> states = HistoryParams.states(state);
    Long fromMs = HistoryParams.instant("from", from);
    Long toMs = HistoryParams.instant("to", to);
    if (fromMs != null && toMs != null && toMs <= fromMs) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "to", "must be after from (" + fromMs + ") but was " + toMs);
    }
    String words = HistoryParams.text(text);
    PageRequest request = PageRequest.of(page, size, limits);
    TriggerSearch search = new TriggerSearch(checkedApp, job, states, fromMs, toMs, words);
    HistoryReader.TriggerPage found =
        history.read("trigger search", h -> h.search(search, request.page(), request.size()));
    return new Page<>(
        found.items().stream().map(TriggerView::fromPostgres).toList(),
        found.page(),
        found.size(),
        found.total());
  }
}
