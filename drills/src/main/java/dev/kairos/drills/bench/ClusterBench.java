package dev.kairos.drills.bench;

import dev.kairos.drills.DrillCluster;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * End-to-end benchmark of the deployed topology: every scheduler node and executor is its own OS
 * process (the drills' {@link DrillCluster}), against the devinfra kit: redis-server and PostgreSQL
 * as processes of their own, ZooKeeper and the RocketMQ NameServer and Broker inside this JVM. The
 * nodes run persistence-sync as shipped ({@code kairos.sync.enabled=true} against that PostgreSQL;
 * {@code --sync=false} starts no PostgreSQL and turns it off, for an A/B). Jobs are created over
 * the admin REST API.
 *
 * <p>Workloads, in the default order: <b>W2</b> (J jobs due on the same millisecond every second),
 * <b>W1</b> (J jobs spread over the second), <b>M1</b> (J jobs at the top of every minute, a window
 * of 3 bursts, each burst reported) — each a ladder of J that stops at its first row that does not
 * keep up — then <b>MIDNIGHT</b> (N one-shot jobs due in the same second: the import time, then how
 * long until all N started). Per row: expected / executed / missed / duplicate / early fires, start
 * lateness, the per-stage breakdown from the trigger records, the CPU every process spent over the
 * window (PostgreSQL's column sums the postmaster and all its children), Redis' {@code used_memory}
 * and key count at the row's end, and the load. {@code --soak-min} instead runs one load for that
 * many minutes and prints Redis' memory every minute. One cluster serves every row: a row's jobs
 * are deleted through the API and the start logs are quiet before the next row's are created.
 *
 * <p>Options: {@link ClusterBenchOptions} ({@code --help}); run and columns: {@code
 * docs/benchmarks.md} section 10. Every wait has a deadline; the cluster is closed at the end, on
 * an exception (after printing the rows that finished) and on Ctrl-C (a shutdown hook).
 */
public final class ClusterBench implements BenchMain.Bench {

  private final ClusterBenchOptions options;
  private final BenchCluster cluster;
  private final Path dir;
  private final Results results = new Results();
  private int rowCount;

  ClusterBench(ClusterBenchOptions options, Path dir) {
    this.options = options;
    this.dir = dir.toAbsolutePath();
    this.cluster = new BenchCluster(options.shape(), dir);
  }

  public static void main(String[] args) {
    BenchMain.run(
        "cluster-bench",
        args,
        ClusterBenchOptions::parse,
        ClusterBenchOptions::helpRequested,
        ClusterBenchOptions::usage,
        ClusterBench::new);
  }

  @Override
  public BenchCluster cluster() {
    return cluster;
  }

  @Override
  public void run() throws InterruptedException {
    BenchOut.say(
        "ClusterBench %s, %d cores, Java %s, load %.2f; %s; nodes=%d executors=%d queues=%d,"
            + " shards=%d, persistence-sync %s, child JVM %s; logs under %s",
        Instant.now(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        ProcStat.readLoadAverage1(),
        plan(),
        options.nodes(),
        options.executors(),
        options.queues(),
        options.shards(),
        options.sync() ? "on" : "off",
        options.childJvmOptions(),
        dir);
    if (!options.redisConfig().isEmpty()) {
      BenchOut.say("Redis CONFIG SET %s", options.redisConfig());
    }
    cluster.start();
    try {
      if (options.soakMinutes() > 0) {
        List<String> ids = new ArrayList<>();
        results.soak(Soak.run(cluster, options, ids));
        cluster.removeJobs(ids);
      } else {
        runWorkloads();
      }
    } finally {
      results.print(System.out, heading(), List.copyOf(cluster.meter().pids().keySet()));
    }
  }

  private void runWorkloads() throws InterruptedException {
    List<String> previous = List.of();
    for (Workload workload : options.workloads()) {
      List<Integer> ladder =
          workload == Workload.MIDNIGHT ? options.midnightJobs() : options.jobs();
      for (int jobs : ladder) {
        cluster.removeJobs(previous);
        cluster.settleHistory();
        List<String> ids = new ArrayList<>();
        previous = ids;
        BenchRow row = runRow(workload, jobs, ids);
        if (workload == Workload.W1 && jobs == options.writeAt() && options.writeJobs() > 0) {
          WriteProbe probe =
              WriteProbe.measure(cluster, workload, ids, options.writeJobs(), rowCount);
          results.add(probe);
          BenchOut.say("WRITES %s", probe.line());
        }
        if (!row.keepsUp()) {
          BenchOut.say(
              "%s at %d jobs does not keep up (missed > %.1f %% or p99 ≥ %d ms): ladder stops",
              workload, jobs, KeepUp.MAX_MISSED_FRACTION * 100, KeepUp.MAX_P99_MS);
          break;
        }
      }
    }
    cluster.removeJobs(previous);
  }

  /** Runs one row, records it and prints its progress lines; its job ids go into {@code ids}. */
  private BenchRow runRow(Workload workload, int jobs, List<String> ids)
      throws InterruptedException {
    int row = ++rowCount;
    BenchRow result;
    if (workload == Workload.MIDNIGHT) {
      MidnightRow.Result midnight = new MidnightRow(cluster, options).run(jobs, row, ids);
      results.add(midnight);
      result = midnight.row();
      BenchOut.say("MIDNIGHT %s", midnight.line());
    } else {
      RecurringRow.Result recurring =
          new RecurringRow(cluster, options).run(workload, jobs, row, ids);
      results.add(recurring);
      result = recurring.row();
      recurring.bursts().forEach(b -> BenchOut.say("BURST %s", b.line(workload, jobs)));
    }
    BenchOut.say("ROW %s", result.mainLine());
    BenchOut.say("CPU %s", result.cpuLine());
    BenchOut.say("JIT %s", result.jitLine());
    BenchOut.say("SWITCHES %s", result.switchesLine());
    BenchOut.say("STAGES %s", result.stagesLine());
    return result;
  }

  /** What this run will do, for its first line. */
  private String plan() {
    if (options.soakMinutes() > 0) {
      return "soak: "
          + options.soakJobs()
          + " "
          + options.soakWorkload()
          + " jobs for "
          + options.soakMinutes()
          + " min (no workload rows)";
    }
    String plan = options.workloads() + " × jobs " + options.jobs();
    return options.workloads().contains(Workload.MIDNIGHT)
        ? plan + ", MIDNIGHT × " + options.midnightJobs()
        : plan;
  }

  private String heading() {
    String run =
        options.soakMinutes() > 0
            ? "soak of " + options.soakMinutes() + " min"
            : "W1/W2 window "
                + options.window().toSeconds()
                + " s, M1 window "
                + options.m1Bursts()
                + " min, warm-up "
                + options.warmup().toSeconds()
                + " s";
    return "ClusterBench results ("
        + run
        + ", persistence-sync "
        + (options.sync() ? "on (PostgreSQL measured as 'postgres')" : "off (no PostgreSQL)")
        + "; the bench JVM hosts the RocketMQ NameServer + Broker and ZooKeeper:"
        + " its CPU is infrastructure):";
  }
}
