package dev.kairos.demo;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.demo.executor.StartCounter;
import dev.kairos.mq.executor.ExecutorStats;
import java.io.PrintStream;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One line of what the demo did: fires that were due, how many started, duplicates the start claim
 * suppressed, fires that never started, and start lateness. A fire counts as missed only once it is
 * {@link #SETTLE_MS} old, so a start in flight is not reported as missing.
 */
final class DemoReport {

  static final long SETTLE_MS = 10_000;

  private final List<JobDefinition> jobs;
  private final long fromMs;
  private final StartCounter starts;
  private final Supplier<ExecutorStats> executorStats;
  private final LongSupplier clock;

  DemoReport(
      List<JobDefinition> jobs,
      long fromMs,
      StartCounter starts,
      Supplier<ExecutorStats> executorStats,
      LongSupplier clock) {
    this.jobs = List.copyOf(jobs);
    this.fromMs = fromMs;
    this.starts = starts;
    this.executorStats = executorStats;
    this.clock = clock;
  }

  /**
   * Counts over every scheduled fire of the demo jobs after both the demo's start and the job's
   * creation, up to now − settle.
   */
  Snapshot snapshot() {
    long settledUpTo = clock.getAsLong() - SETTLE_MS;
    long due = 0;
    long missed = 0;
    for (JobDefinition job : jobs) {
      // A job's first fire is the first after its creation (cluster time), not after the demo's
      // own start: a second boundary crossed while creating the jobs would count a fire that
      // never existed as missed.
      long after = Math.max(fromMs, job.createdMs());
      while (true) {
        OptionalLong next = job.schedule().nextFireAfter(after);
        if (next.isEmpty() || next.getAsLong() > settledUpTo) {
          break;
        }
        after = next.getAsLong();
        due++;
        if (starts.startsOf(TriggerId.scheduled(job.id(), after).value()) == 0) {
          missed++;
        }
      }
    }
    ExecutorStats stats = executorStats.get();
    return new Snapshot(
        due,
        starts.executed(),
        stats.duplicates(),
        starts.duplicateStarts(),
        missed,
        starts.latenessMs(0.5),
        starts.latenessMs(0.99));
  }

  void print(PrintStream out) {
    Snapshot s = snapshot();
    out.printf(
        "kairos demo: due %d (settled), executed %d, duplicates suppressed %d, duplicate starts %d,"
            + " missed %d, start lateness p50 %d ms p99 %d ms%n",
        s.due(),
        s.executed(),
        s.duplicatesSuppressed(),
        s.duplicateStarts(),
        s.missed(),
        s.latenessP50Ms(),
        s.latenessP99Ms());
  }

  record Snapshot(
      long due,
      long executed,
      long duplicatesSuppressed,
      long duplicateStarts,
      long missed,
      long latenessP50Ms,
      long latenessP99Ms) {}
}
