package dev.kairos.sync.history.read;

import dev.kairos.core.model.TriggerState;
import dev.kairos.sync.history.TriggerRecord;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;

/**
 * The history read side as the API uses it: trigger search across jobs, the daily report, per-job
 * statistics. Only reads (read-only repositories); bounds on the input are the caller's to check. A
 * PostgreSQL that does not answer surfaces as Spring's {@code DataAccessException}.
 */
public final class HistoryReader {

  /** A page of the search; {@code total} counts every match. */
  public record TriggerPage(List<TriggerRecord> items, int page, int size, long total) {}

  private final TriggerHistoryRepository triggers;
  private final DailyReportRepository reports;

  public HistoryReader(TriggerHistoryRepository triggers, DailyReportRepository reports) {
    this.triggers = triggers;
    this.reports = reports;
  }

  public TriggerPage search(TriggerSearch search, int page, int size) {
    Page<TriggerEntity> found = triggers.search(search, PageRequest.of(page, size));
    return new TriggerPage(
        found.map(TriggerEntity::toRecord).getContent(), page, size, found.getTotalElements());
  }

  public DailyReport dailyReport(LocalDate from, LocalDate to, String app) {
    List<AppDailyCount> apps =
        app == null ? reports.perApp(from, to) : reports.ofApp(from, to, app);
    List<AppDailyCount> all =
        reports.allJobs(from, to).stream()
            .map(
                r ->
                    new AppDailyCount(
                        r.day(),
                        "*",
                        r.successCount(),
                        r.failureCount(),
                        r.runningCount(),
                        r.otherCount()))
            .toList();
    return new DailyReport(from, to, app, apps, all);
  }

  public JobStats jobStats(String jobId, long fromMs, long toMs) {
    Map<String, Long> byState = new LinkedHashMap<>();
    long total = 0;
    long finished = 0;
    for (StateCount c : triggers.countByState(jobId, fromMs, toMs)) {
      byState.put(c.state(), c.count());
      total += c.count();
      if (isFinal(c.state())) {
        finished += c.count();
      }
    }
    long success = byState.getOrDefault(TriggerState.SUCCESS.name(), 0L);
    DurationPercentiles d = triggers.durations(jobId, fromMs, toMs);
    return new JobStats(
        jobId,
        fromMs,
        toMs,
        total,
        finished,
        success,
        finished == 0 ? null : (double) success / finished,
        byState,
        new JobStats.Durations(d.getTimed(), d.getP50(), d.getP90(), d.getP99(), d.getMax()));
  }

  /**
   * Whether a trigger in {@code state} counts as an ended run: SKIPPED is final but no run (a
   * calendar excluded the fire), so it is shown by state and leaves the success rate alone.
   */
  static boolean isFinal(String state) {
    try {
      TriggerState parsed = TriggerState.valueOf(state);
      return parsed.isTerminal() && parsed != TriggerState.SKIPPED;
    } catch (IllegalArgumentException | NullPointerException e) {
      return false; // a state this version does not know is not counted as final
    }
  }
}
