package dev.kairos.node.api.history;

import dev.kairos.core.store.JobNotFoundException;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.api.web.Callers;
import dev.kairos.node.api.web.JobIds;
import dev.kairos.security.Access;
import dev.kairos.sync.history.read.DailyReport;
import dev.kairos.sync.history.read.JobStats;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Reports from the PostgreSQL history: the daily report per app, and one job's statistics over a
 * time range. Behind Redis by the sync lag; a job deleted since still has its history.
 */
@RestController
class HistoryController {

  static final Duration MAX_STATS_RANGE = Duration.ofDays(31);
  static final Duration DEFAULT_STATS_RANGE = Duration.ofDays(1);
  static final int MAX_REPORT_DAYS = 92;
  static final int DEFAULT_REPORT_DAYS = 7;

  private final HistoryAccess history;
  private final ClusterClock clock;
  private final JobStore store;

  HistoryController(HistoryAccess history, ClusterClock clock, JobStore store) {
    this.history = history;
    this.clock = clock;
    this.store = store;
  }

  /** Days [from, to] (UTC, inclusive); defaults: the last 7 days up to today. */
  @GetMapping(path = "/api/v1/reports/daily", produces = MediaType.APPLICATION_JSON_VALUE)
  DailyReport daily(
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to,
      @RequestParam(required = false) String app) {
    LocalDate last = HistoryParams.day("to", to);
    LocalDate first = HistoryParams.day("from", from);
    String requested = HistoryParams.app(app);
    Access access = Callers.current();
    // A scoped caller gets its apps' rows only, and no all-jobs total (other apps are in it); one
    // of several apps names none and gets them all.
    boolean severalApps =
        requested == null && !access.seesAllApps() && access.scope().apps().size() > 1;
    String checkedApp = severalApps ? null : Callers.appOfQuery(requested);
    if (last == null) {
      last = LocalDate.ofInstant(Instant.ofEpochMilli(clock.nowMs()), ZoneOffset.UTC);
    }
    if (first == null) {
      first = last.minusDays(DEFAULT_REPORT_DAYS - 1);
    }
    LocalDate f = first;
    LocalDate l = last;
    HistoryParams.days(f, l, MAX_REPORT_DAYS);
    DailyReport report = history.read("daily report", h -> h.dailyReport(f, l, checkedApp));
    if (access.seesAllApps()) {
      return report;
    }
    return new DailyReport(
        report.from(),
        report.to(),
        report.app(),
        report.apps().stream().filter(r -> access.canRead(r.app())).toList(),
        List.of());
  }

  /** Triggers scheduled in [from, to); defaults: the last 24 hours. */
  @GetMapping(path = "/api/v1/jobs/{id}/stats", produces = MediaType.APPLICATION_JSON_VALUE)
  JobStats stats(
      @PathVariable String id,
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to) {
    JobIds.checked("id", id);
    Callers.requireReadOfJob(store, id, () -> new JobNotFoundException(id));
    Long toMs = HistoryParams.instant("to", to);
    Long fromMs = HistoryParams.instant("from", from);
    long t = toMs == null ? clock.nowMs() : toMs;
    long f = fromMs == null ? t - DEFAULT_STATS_RANGE.toMillis() : fromMs;
    HistoryParams.range(f, t, MAX_STATS_RANGE);
    return history.read("job " + id + " statistics", h -> h.jobStats(id, f, t));
  }
}
