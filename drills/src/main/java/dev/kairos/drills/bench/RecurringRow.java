package dev.kairos.drills.bench;

import dev.kairos.devinfra.Poll;
import dev.kairos.drills.DrillJobs;
import dev.kairos.drills.StartLedger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One row of a recurring workload (W2, W1, M1) at J jobs: create them through the import, wait
 * until the leader has claimed a fire of each, warm up, measure a window, drain, and read how the
 * window's fires started and what every process spent.
 *
 * <p>The window: W1 and W2 from a whole second, {@code --window-s} long; M1 from 30 s before a
 * whole minute, {@code --m1-bursts} whole minutes long, so it holds that many bursts, each with the
 * claims ahead of it (the leader's pre-read) and its tail inside.
 */
final class RecurringRow {

  /** The row, and for M1 each burst of its window (empty for W1 and W2). */
  record Result(BenchRow row, List<Burst> bursts) {}

  /** The jobs as created: wall time, calls, anchors read back, W1's busiest 10 ms band. */
  record Created(double seconds, int calls, Map<String, Long> createdMs, int busiestBand) {}

  static final Duration DRAIN_CAP = Duration.ofSeconds(60);
  private static final Duration CLAIM_DEADLINE = Duration.ofSeconds(120);
  private static final Duration CREATE_DEADLINE = Duration.ofSeconds(300);
  private static final long M1_QUIET_BEFORE_MS = 30_000;

  private final BenchCluster cluster;
  private final ClusterBenchOptions options;

  RecurringRow(BenchCluster cluster, ClusterBenchOptions options) {
    this.cluster = cluster;
    this.options = options;
  }

  /**
   * Runs row {@code row} of {@code workload} at {@code jobs}; the jobs' ids go into {@code ids}.
   */
  Result run(Workload workload, int jobs, int row, List<String> ids) throws InterruptedException {
    double loadBefore = ProcStat.readLoadAverage1();
    String prefix = workload.name().toLowerCase() + "-r" + row + "-";
    for (int i = 0; i < jobs; i++) {
      ids.add(prefix + i);
    }
    String label = workload + " row " + row;
    Created created = create(cluster, workload, ids, label);
    awaitClaimed(cluster, ids, label);
    BenchOut.say(
        "%s row %d: every job claimed once; warm-up %d s",
        workload, row, options.warmup().toSeconds());
    Thread.sleep(options.warmup().toMillis()); // a timed phase of the run, not a wait for a state
    long now = System.currentTimeMillis();
    long from =
        WallClock.sleepUntil(
            workload == Workload.M1
                ? WallClock.nextMinuteLess(now, M1_QUIET_BEFORE_MS)
                : WallClock.nextWholeSecond(now));
    long windowMs =
        workload == Workload.M1 ? options.m1Bursts() * 60_000L : options.window().toMillis();
    Window.Measured measured = Window.measure(cluster, from, from + windowMs);
    long to = measured.toMs();
    List<String> expected = workload.expectedFires(created.createdMs(), from, to);
    BenchOut.say(
        "%s row %d: window [%d, %d) over; %d expected fires; draining (cap %d s)",
        workload, row, from, to, expected.size(), DRAIN_CAP.toSeconds());
    measured.report(workload + " row " + row, expected.size());
    StartLedger.Outcome outcome = cluster.drain(expected, to + DRAIN_CAP.toMillis());
    Map<String, List<StartLedger.Start>> logged = StartLedger.readLogs(cluster.executors());
    StartStats stats = StartStats.of(cluster::stageTimestamps, outcome, logged);
    BenchRow benchRow =
        new BenchRow(
            workload,
            jobs,
            created.seconds(),
            created.calls(),
            created.busiestBand(),
            (to - from) / 1000,
            expected.size(),
            outcome.firstStartMs().size(),
            outcome.missed().size(),
            outcome.duplicates().size(),
            stats.early(),
            stats.lateness(),
            StartStats.startsBetween(logged, from, to),
            stats.ackBeforeFire(),
            stats.fireToClaim(),
            stats.claimToHandler(),
            measured.cpu(),
            cluster.memory(),
            loadBefore,
            ProcStat.readLoadAverage1());
    List<Burst> bursts =
        workload == Workload.M1 ? Burst.of(expected, outcome.firstStartMs()) : List.of();
    return new Result(benchRow, bursts);
  }

  /**
   * Creates {@code ids} as jobs of {@code workload} through the import (W1 paced over one sweep of
   * a second, the others {@link JobApi#MAX_BATCH} per call) and reads their anchors back; {@code
   * label} names the row (or the soak) in the progress lines.
   */
  static Created create(BenchCluster cluster, Workload workload, List<String> ids, String label)
      throws InterruptedException {
    int jobs = ids.size();
    List<List<Integer>> calls = workload.imports(jobs, JobApi.MAX_BATCH);
    long createStart = System.nanoTime();
    // W1: one sweep over the second; a band's call waits for its offset, never for a later second,
    // so slow calls make phases lag (the busiest band shows it) instead of stretching the import.
    long sweep = WallClock.nextWholeSecond(System.currentTimeMillis());
    for (List<Integer> call : calls) {
      if (workload == Workload.W1) {
        WallClock.sleepUntil(
            sweep + Workload.bandOf(call.get(0), jobs) * 1000L / Workload.PHASE_BANDS);
      }
      cluster
          .api()
          .importJobs(call.stream().map(i -> workload.job(ids.get(i), cluster.app())).toList());
      if (System.nanoTime() - createStart > CREATE_DEADLINE.toNanos()) {
        throw new IllegalStateException("creating " + jobs + " jobs exceeded " + CREATE_DEADLINE);
      }
    }
    double seconds = (System.nanoTime() - createStart) / 1e9;
    BenchOut.say(
        "%s: created %d jobs in %.2f s (%d import calls)", label, jobs, seconds, calls.size());
    Map<String, Long> createdMs = cluster.createdMs(ids);
    int busiestBand = jobs;
    if (workload == Workload.W1) {
      int[] bands = new int[Workload.PHASE_BANDS];
      createdMs.values().forEach(c -> bands[(int) (Math.floorMod(c, 1000L) / 10)]++);
      busiestBand = Arrays.stream(bands).max().orElse(0);
      BenchOut.say(
          "%s: phases over the second: busiest 10 ms band holds %d jobs (even: %.1f)",
          label, busiestBand, jobs / (double) Workload.PHASE_BANDS);
    }
    return new Created(seconds, calls.size(), createdMs, busiestBand);
  }

  /**
   * Waits (deadline 2 min: M1's first fire may be a minute away) until the leader has claimed a
   * first fire of every job.
   */
  static void awaitClaimed(BenchCluster cluster, List<String> ids, String label) {
    DrillJobs drillJobs = new DrillJobs(new ArrayList<>(ids));
    Poll.until(
        CLAIM_DEADLINE,
        Duration.ofSeconds(1),
        label + ": the leader claims a first fire of every job",
        () -> drillJobs.unclaimed(cluster.redis(), cluster.keys()).isEmpty());
  }
}
