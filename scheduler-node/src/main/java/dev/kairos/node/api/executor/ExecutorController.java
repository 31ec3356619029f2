package dev.kairos.node.api.executor;

import dev.kairos.core.store.AppSettingsStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.job.JobCatalog;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.node.api.web.Callers;
import dev.kairos.security.Access;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Executor apps and their live slot leases. Apps are found through the jobs that name them, in the
 * shards' per-app job indexes (slot leases are keyed by app and have no global index, and SCAN is
 * not used), and counted there without reading any job; an app no job names yet can be asked for by
 * name.
 */
@RestController
class ExecutorController {

  private static final Pattern APP = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final LiveSlots slots;
  private final JobCatalog catalog;
  private final ClusterClock clock;
  private final AppSettingsStore apps;

  ExecutorController(
      LiveSlots slots, JobCatalog catalog, ClusterClock clock, AppSettingsStore apps) {
    this.apps = apps;
    this.slots = slots;
    this.catalog = catalog;
    this.clock = clock;
  }

  @GetMapping(path = "/api/v1/executors", produces = MediaType.APPLICATION_JSON_VALUE)
  List<ExecutorView> list() {
    Map<String, Long> jobsPerApp = catalog.countPerApp();
    long now = clock.nowMs();
    Access access = Callers.current();
    return jobsPerApp.entrySet().stream()
        .filter(e -> access.canRead(e.getKey()))
        .map(
            e ->
                ExecutorView.of(
                    e.getKey(),
                    e.getValue().intValue(),
                    slots.of(e.getKey()),
                    now,
                    apps.get(e.getKey())))
        .toList();
  }

  @GetMapping(path = "/api/v1/executors/{app}", produces = MediaType.APPLICATION_JSON_VALUE)
  ExecutorView get(@PathVariable String app) {
    if (!APP.matcher(app).matches()) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD, "app", "must be 1-64 characters of [A-Za-z0-9_.-]");
    }
    Callers.requireRead(
        app, () -> new ApiProblemException(ProblemType.NOT_FOUND, "no executor app " + app));
    int jobs = (int) catalog.countOfApp(app);
    return ExecutorView.of(app, jobs, slots.of(app), clock.nowMs(), apps.get(app));
  }
}
