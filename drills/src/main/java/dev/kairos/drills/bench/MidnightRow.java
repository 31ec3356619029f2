package dev.kairos.drills.bench;

import dev.kairos.drills.StartLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One MIDNIGHT row: N ONE_SHOT jobs all due at one whole second, as a company's nightly jobs at
 * 00:00. The due instant is fixed before the first import call, {@code --midnight-lead-s} ahead
 * (default 30 s + 1 ms per job), and the import ({@link JobApi#MAX_BATCH} jobs per call) must end
 * before it: the row reports the time it took and the slack it left, and fails if it ran past the
 * due instant (its fires would be late by the import, not by the scheduler).
 *
 * <p>The window opens 10 s before the due instant (the leader claims fires 5 s ahead, its pre-read)
 * and closes at the first once-a-second reading after which the executors' start logs stopped
 * growing for 5 s (at most 5 minutes after the due instant): the CPU of the whole burst and nothing
 * after it. Every fire is then looked up in the start logs and the trigger records.
 */
final class MidnightRow {

  /** The row (also in the main tables), and what only MIDNIGHT has. */
  record Result(BenchRow row, long dueMs, double slackSeconds, Burst burst) {

    static String header() {
      return "| jobs | import s (calls) | due (UTC) | slack s | expected | executed | missed | dup. "
          + "| early | p50 ms | p99 | max | all started after ms | keeps up |\n"
          + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "| %,d | %.1f (%,d) | %s | %.1f | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %s"
              + " | %s |",
          row.jobs(),
          row.createdSeconds(),
          row.importCalls(),
          Instant.ofEpochMilli(dueMs),
          slackSeconds,
          row.expected(),
          row.executed(),
          row.missed(),
          row.duplicates(),
          row.early(),
          burst.lateness().p50(),
          burst.lateness().p99(),
          burst.lateness().max(),
          burst.allStartedAfter(),
          row.keepsUp() ? "yes" : "**no**");
    }
  }

  private static final long OPEN_BEFORE_DUE_MS = 10_000;
  private static final Duration QUIET = Duration.ofSeconds(5);
  private static final Duration FOLLOW_CAP = Duration.ofMinutes(5);
  private static final Duration AFTER_FOLLOW_DRAIN = Duration.ofSeconds(10);

  private final BenchCluster cluster;
  private final ClusterBenchOptions options;

  MidnightRow(BenchCluster cluster, ClusterBenchOptions options) {
    this.cluster = cluster;
    this.options = options;
  }

  /** Runs row {@code row} with {@code jobs} one-shot jobs; their ids go into {@code ids}. */
  Result run(int jobs, int row, List<String> ids) throws InterruptedException {
    double loadBefore = ProcStat.readLoadAverage1();
    for (int i = 0; i < jobs; i++) {
      ids.add("midnight-r" + row + "-" + i);
    }
    long began = System.currentTimeMillis();
    long dueMs = Math.floorDiv(began + options.midnightLead(jobs).toMillis() + 999, 1000) * 1000;
    BenchOut.say(
        "MIDNIGHT row %d: importing %d ONE_SHOT jobs due at %s",
        row, jobs, Instant.ofEpochMilli(dueMs));
    List<List<String>> calls = BenchCluster.chunks(ids);
    long importStart = System.nanoTime();
    int imported = 0;
    for (List<String> call : calls) {
      if (System.currentTimeMillis() >= dueMs) {
        throw new IllegalStateException(
            "MIDNIGHT: the import reached the due instant after "
                + imported
                + " of "
                + jobs
                + " jobs; give it more time with --midnight-lead-s");
      }
      cluster
          .api()
          .importJobs(
              call.stream().map(j -> Workload.oneShotJob(j, cluster.app(), dueMs)).toList());
      imported += call.size();
    }
    double importSeconds = (System.nanoTime() - importStart) / 1e9;
    long importEnd = System.currentTimeMillis();
    double slack = (dueMs - importEnd) / 1e3;
    BenchOut.say(
        "MIDNIGHT row %d: imported %d jobs in %.2f s (%d calls), %.1f s before they are due",
        row, jobs, importSeconds, calls.size(), slack);
    long from = Math.max(dueMs - OPEN_BEFORE_DUE_MS, System.currentTimeMillis());
    WallClock.sleepUntil(from);
    Window.Open open = Window.open(cluster, from);
    WallClock.sleepUntil(dueMs);
    Reading end = followBurst(dueMs);
    Window.Measured measured = open.close(end.atMs(), end.sample());
    long to = end.atMs();
    Map<String, Long> dues = new LinkedHashMap<>();
    ids.forEach(id -> dues.put(id, dueMs));
    List<String> expected = Workload.MIDNIGHT.expectedFires(dues, dueMs, dueMs + 1);
    BenchOut.say(
        "MIDNIGHT row %d: starts stopped growing %d ms after the due instant; window [%d, %d)",
        row, to - dueMs, from, to);
    measured.report("MIDNIGHT row " + row, expected.size());
    StartLedger.Outcome outcome =
        cluster.drain(expected, System.currentTimeMillis() + AFTER_FOLLOW_DRAIN.toMillis());
    Map<String, List<StartLedger.Start>> logged = StartLedger.readLogs(cluster.executors());
    StartStats stats = StartStats.of(cluster::stageTimestamps, outcome, logged);
    BenchRow benchRow =
        new BenchRow(
            Workload.MIDNIGHT,
            jobs,
            importSeconds,
            calls.size(),
            jobs,
            Math.max(1, (to - from) / 1000),
            expected.size(),
            outcome.firstStartMs().size(),
            outcome.missed().size(),
            outcome.duplicates().size(),
            stats.early(),
            stats.lateness(),
            // The last start was logged before the reading that saw it: [from, to] inclusive.
            StartStats.startsBetween(logged, from, to + 1),
            stats.ackBeforeFire(),
            stats.fireToClaim(),
            stats.claimToHandler(),
            measured.cpu(),
            cluster.memory(),
            loadBefore,
            ProcStat.readLoadAverage1());
    Burst burst = Burst.of(expected, outcome.firstStartMs()).get(0);
    return new Result(benchRow, dueMs, slack, burst);
  }

  /** A once-a-second reading while the burst runs. */
  private record Reading(long atMs, long startLogBytes, CpuMeter.Sample sample) {}

  /**
   * From the due instant on, reads the start logs' size and the CPU once a second; returns the
   * first reading after which the logs did not grow for {@link #QUIET} (or the last one, at {@link
   * #FOLLOW_CAP}). Only file sizes are read meanwhile: no Redis lookups inside the window.
   */
  private Reading followBurst(long dueMs) throws InterruptedException {
    Reading last = read();
    long capMs = dueMs + FOLLOW_CAP.toMillis();
    while (true) {
      Thread.sleep(1_000); // one reading a second, up to the cap
      Reading now = read();
      if (now.startLogBytes() != last.startLogBytes()) {
        last = now;
      } else if (now.atMs() - last.atMs() >= QUIET.toMillis()) {
        return last;
      }
      if (now.atMs() >= capMs) {
        BenchOut.say(
            "MIDNIGHT: starts still growing %d s after the due instant", FOLLOW_CAP.toSeconds());
        return now;
      }
    }
  }

  private Reading read() {
    long bytes = cluster.startLogBytes();
    return new Reading(System.currentTimeMillis(), bytes, cluster.meter().sample());
  }
}
