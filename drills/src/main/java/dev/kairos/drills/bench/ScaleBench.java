package dev.kairos.drills.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Issue #33's scale benchmark: how Kairos behaves as its store grows to a million jobs, on the
 * deployed topology of {@link ClusterBench} (2 scheduler node JVMs and 2 executor JVMs by default,
 * Redis and PostgreSQL as processes of their own, persistence-sync on; {@link BenchCluster}).
 *
 * <p>The store grows level by level ({@code --levels}, cumulative: 0 → 10k → 100k → 1M by default);
 * each level imports its new jobs ({@link ScaleMix}: hourly and daily crons at random times, a
 * top-of-minute slice, fixed-rate and one-shot jobs) through {@code POST /api/v1/job-import} while
 * the stored ones fire, then measures, in this order:
 *
 * <ol>
 *   <li>the import: time and jobs/s ({@link ScaleImport});
 *   <li>one minute around a top-of-minute burst ({@link ScanProbe}): the leader's scan pass (time,
 *       fires claimed and Redis CPU per pass, due-set read time), the burst's start lateness, and
 *       missed / duplicate / early over every fire of the minute;
 *   <li>memory: Redis per job ({@link JobMemory}), PostgreSQL's tables ({@link PgSizes}), every
 *       node's and executor's heap after a full collection ({@link HeapAfterGc});
 *   <li>a rebuild of an emptied Redis from PostgreSQL ({@link RebuildProbe});
 *   <li>the admin API's lists, searches, a job's page and the export ({@link ApiProbe}).
 * </ol>
 *
 * <p>Options: {@link ScaleBenchOptions} ({@code --help}); run and columns: {@code
 * docs/benchmarks.md} section 11. Every wait has a deadline; the cluster is closed at the end, on
 * an exception (after printing the levels that finished) and on Ctrl-C (a shutdown hook).
 */
public final class ScaleBench implements BenchMain.Bench {

  private final ScaleBenchOptions options;
  private final BenchCluster cluster;
  private final Path dir;
  private final List<ScaleLevel> levels = new ArrayList<>();

  ScaleBench(ScaleBenchOptions options, Path dir) {
    this.options = options;
    this.dir = dir.toAbsolutePath();
    this.cluster = new BenchCluster(options.shape(), dir);
  }

  public static void main(String[] args) {
    BenchMain.run(
        "scale-bench",
        args,
        ScaleBenchOptions::parse,
        ScaleBenchOptions::helpRequested,
        ScaleBenchOptions::usage,
        ScaleBench::new);
  }

  @Override
  public BenchCluster cluster() {
    return cluster;
  }

  @Override
  public void run() throws InterruptedException {
    ClusterShape shape = options.shape();
    BenchOut.say(
        "ScaleBench %s, %d cores, Java %s, load %.2f; levels %s, seed %d, %d import callers;"
            + " nodes=%d executors=%d queues=%d shards=%d, persistence-sync on, child JVM %s; logs"
            + " under %s",
        Instant.now(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        ProcStat.readLoadAverage1(),
        options.levels(),
        options.seed(),
        options.importCallers(),
        shape.nodes(),
        shape.executors(),
        shape.queues(),
        shape.shards(),
        shape.childJvmOptions(),
        dir);
    cluster.start();
    long baseline = cluster.memory().usedMemory();
    ScaleStore store = new ScaleStore(new ScaleMix(options.seed()));
    ApiProbe api = new ApiProbe(cluster, options);
    try {
      for (int jobs : options.levels()) {
        runLevel(store, jobs, baseline, api);
      }
    } finally {
      print(System.out);
    }
  }

  /**
   * Runs one level and adds it to the results; a failed rebuild or API probe still adds what the
   * level measured before it, then ends the run.
   */
  private void runLevel(ScaleStore store, long jobs, long baseline, ApiProbe api)
      throws InterruptedException {
    String label = String.format(Locale.ROOT, "level %,d", jobs);
    long from = store.size();
    ScaleImport.Result imported =
        ScaleImport.run(cluster, store, jobs, options.importCallers(), label);
    BenchOut.say(
        "%s: IMPORT %,d jobs in %.1f s (%,.0f jobs/s, %d calls, %d callers)",
        label,
        imported.added(),
        imported.seconds(),
        imported.jobsPerSecond(),
        imported.calls(),
        imported.callers());
    store.anchors(cluster.createdMs(ScaleStore.fixedRateIds(from, jobs)));

    ScanProbe.Result scan = ScanProbe.run(cluster, store, label);
    BenchOut.say(
        "%s: SCAN %,.0f passes, p50 %.0f ms, p99 %.0f ms, %.1f fires/pass, Redis %.1f ms CPU/pass",
        label,
        scan.passes(),
        scan.passP50Ms(),
        scan.passP99Ms(),
        scan.firesPerPass(),
        scan.redisCpuMillisPerPass());
    BenchOut.say(
        "%s: BURST %,d fires at %s: %,d started, %,d missed, %,d dup., %,d early, lateness %s;"
            + " window: %,d fires, %,d missed, %,d dup., %,d early, %s",
        label,
        scan.burst().expected(),
        Instant.ofEpochMilli(scan.minuteMs()),
        scan.burst().started(),
        scan.burst().missed(),
        scan.burst().duplicates(),
        scan.burst().early(),
        scan.burst().lateness(),
        scan.window().expected(),
        scan.window().missed(),
        scan.window().duplicates(),
        scan.window().early(),
        scan.window().lateness());

    JobMemory memory =
        JobMemory.measure(
            cluster.redis(), cluster.keys(), jobs, options.memorySamples(), options.seed() + jobs);
    PgSizes pg = PgSizes.read(cluster.postgres());
    Map<String, OptionalLong> heaps = new LinkedHashMap<>();
    for (String process : javaProcesses()) {
      heaps.put(process, HeapAfterGc.measure(cluster.meter().pids().get(process)));
    }
    BenchOut.say(
        "%s: MEMORY Redis %s; job hash %.0f B (definition %.0f B), per-shard keys %.1f B/job,"
            + " event streams %.1f MB; PostgreSQL kairos_job %.1f MB (%,d live), kairos_trigger %.1f MB (%,d rows);"
            + " heaps after full GC (MB) %s",
        label,
        new RedisMemory(memory.usedMemory(), memory.keys(), null),
        memory.hashBytes(),
        memory.payloadBytes(),
        memory.shardKeyBytes() / (double) jobs,
        memory.streamBytes() / 1e6,
        pg.jobBytes() / 1e6,
        pg.liveJobs(),
        pg.triggerBytes() / 1e6,
        pg.triggerRows(),
        heapsText(heaps));

    RebuildProbe.Result rebuild = null;
    ApiProbe.Result apiResult = null;
    RuntimeException failure = null;
    try {
      if (options.rebuild()) {
        rebuild = new RebuildProbe(cluster, store, label).run();
        BenchOut.say(
            "%s: REBUILD marked %.1f s, final %.1f s, all jobs back %.1f s, first new fire started"
                + " %.1f s after the flush; gap: %,d fires, %,d started, %,d + %,d not started, %,d"
                + " dup., lateness %s; due scores %s",
            label,
            rebuild.markedSeconds(),
            rebuild.finalSeconds(),
            rebuild.jobsBackSeconds(),
            rebuild.firstStartSeconds(),
            rebuild.gap().expected(),
            rebuild.gap().started(),
            rebuild.missedDueBeforeFlush(),
            rebuild.missedDueAfterFlush(),
            rebuild.gap().duplicates(),
            rebuild.gap().lateness(),
            rebuild.scores());
      }
      apiResult = api.run(jobs, label);
    } catch (RuntimeException e) {
      failure = e;
      BenchOut.say("%s: FAILED after its memory readings: %s", label, e);
    }
    levels.add(
        new ScaleLevel(jobs, imported, scan, memory, baseline, pg, heaps, rebuild, apiResult));
    if (failure != null) {
      throw failure;
    }
    BenchOut.say("%s: done", label);
  }

  /** {@code node-1=66.8, …} in MB, "–" where jcmd failed. */
  private static String heapsText(Map<String, OptionalLong> heaps) {
    StringBuilder text = new StringBuilder();
    heaps.forEach(
        (process, heap) ->
            text.append(text.length() == 0 ? "" : ", ")
                .append(process)
                .append('=')
                .append(
                    heap.isPresent()
                        ? String.format(Locale.ROOT, "%.1f", heap.getAsLong() / 1e6)
                        : "–"));
    return text.toString();
  }

  /** The node and executor JVMs, in the meter's order. */
  private List<String> javaProcesses() {
    return cluster.meter().pids().keySet().stream()
        .filter(n -> n.startsWith("node-") || n.startsWith("exec-"))
        .toList();
  }

  private void print(PrintStream out) {
    List<String> processes = javaProcesses();
    out.println();
    out.println(
        "ScaleBench results (levels "
            + options.levels()
            + ", "
            + options.importCallers()
            + " import callers, seed "
            + options.seed()
            + "):");
    if (levels.isEmpty()) {
      out.println("(no level finished)");
      return;
    }
    out.println();
    out.println("Import and Redis memory:");
    out.println();
    out.println(ScaleLevel.importHeader());
    levels.forEach(l -> out.println(l.importLine()));
    out.println();
    out.println("PostgreSQL and heaps after a full collection:");
    out.println();
    out.println(ScaleLevel.storageHeader(processes));
    levels.forEach(l -> out.println(l.storageLine(processes)));
    out.println();
    out.println("The leader's scan passes over the minute around the burst:");
    out.println();
    out.println(ScaleLevel.scanHeader());
    levels.forEach(l -> out.println(l.scanLine()));
    out.println();
    out.println("The top-of-minute burst, and every fire of that minute:");
    out.println();
    out.println(ScaleLevel.burstHeader());
    levels.forEach(l -> out.println(l.burstLine()));
    out.println();
    out.println("Rebuild of an emptied Redis from PostgreSQL (times from the FLUSHALL):");
    out.println();
    out.println(ScaleLevel.rebuildHeader());
    levels.forEach(l -> out.println(l.rebuildLine()));
    out.println();
    out.println("Admin API (through a follower):");
    out.println();
    out.println(ScaleLevel.apiHeader());
    levels.forEach(l -> l.apiLines().forEach(out::println));
    out.println();
    out.println(ScaleLevel.exportHeader());
    levels.forEach(l -> out.println(l.exportLine()));
  }
}
