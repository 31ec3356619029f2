package dev.kairos.drills.bench;

import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.drills.DrillCluster;
import dev.kairos.drills.DrillExecutor;
import dev.kairos.drills.DrillJobs;
import dev.kairos.drills.DrillNode;
import dev.kairos.drills.StartLedger;
import dev.kairos.drills.StartRecorder;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.record.TriggerFields;
import io.lettuce.core.RedisFuture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * End-to-end benchmark of the deployed topology: every scheduler node and executor is its own OS
 * process (the drills' {@link DrillCluster}), against the devinfra kit (redis-server as a child
 * process; ZooKeeper, the RocketMQ NameServer and Broker inside this JVM). Jobs are created over
 * the admin REST API; per J on the ladder it measures expected / executed / missed / duplicate /
 * early fires, start lateness, the per-stage breakdown from the trigger records, and the CPU every
 * process spent over the window. One cluster serves every row: a row's jobs are deleted through the
 * API and the start logs are quiet before the next row's are created.
 *
 * <p>Run and columns: {@code docs/benchmarks.md} section 10. Every wait has a deadline; {@link
 * #close()} (also on Ctrl-C, through a shutdown hook) kills the child JVMs and the infrastructure.
 */
public final class ClusterBench implements AutoCloseable {

  /** Options a deployment would use, not the drills' C1-only 256 MB: see the docs, section 10. */
  static final List<String> BENCH_CHILD_JVM_OPTIONS =
      List.of(
          "-Xmx512m",
          "-XX:+UseSerialGC",
          "-XX:MetaspaceSize=128m",
          "-Xss512k",
          "-XX:-UseDynamicNumberOfCompilerThreads");

  private static final Duration START_DEADLINE = Duration.ofSeconds(240);
  private static final Duration CLAIM_DEADLINE = Duration.ofSeconds(120);
  private static final Duration CREATE_DEADLINE = Duration.ofSeconds(300);
  private static final Duration DRAIN_CAP = Duration.ofSeconds(60);
  private static final Duration QUIET_FOR = Duration.ofSeconds(5);
  private static final Duration QUIET_DEADLINE = Duration.ofSeconds(120);
  private static final String BENCH_JVM = "bench-jvm (broker+namesrv+zk)";

  /** Command-line options, {@code --name=value}; see {@link #usage()}. */
  record Options(
      List<Integer> jobs,
      List<Workload> workloads,
      int nodes,
      int executors,
      int queues,
      Duration warmup,
      Duration window,
      List<String> childJvmOptions,
      int writeJobs,
      int writeAt,
      int shards,
      Map<String, String> redisConfig) {

    static Options parse(String... args) {
      Map<String, String> given = new HashMap<>();
      for (String arg : args) {
        int eq = arg.indexOf('=');
        if (!arg.startsWith("--") || eq < 0) {
          throw new IllegalArgumentException(
              "expected --name=value, got '" + arg + "'\n" + usage());
        }
        given.put(arg.substring(2, eq), arg.substring(eq + 1));
      }
      Options o =
          new Options(
              Arrays.stream(given.getOrDefault("jobs", "100,1000,2000,5000").split(","))
                  .map(String::trim)
                  .map(Integer::parseInt)
                  .toList(),
              Arrays.stream(given.getOrDefault("workloads", "W1,W2").split(","))
                  .map(String::trim)
                  .map(Workload::valueOf)
                  .toList(),
              Integer.parseInt(given.getOrDefault("nodes", "2")),
              Integer.parseInt(given.getOrDefault("executors", "2")),
              Integer.parseInt(given.getOrDefault("queues", "4")),
              Duration.ofSeconds(Long.parseLong(given.getOrDefault("warmup-s", "10"))),
              Duration.ofSeconds(Long.parseLong(given.getOrDefault("window-s", "60"))),
              given.containsKey("child-jvm")
                  ? Arrays.stream(given.get("child-jvm").split(",")).map(String::trim).toList()
                  : BENCH_CHILD_JVM_OPTIONS,
              Integer.parseInt(given.getOrDefault("write-jobs", "10000")),
              Integer.parseInt(given.getOrDefault("write-at", "1000")),
              Integer.parseInt(
                  given.getOrDefault("shards", Integer.toString(RedisKeys.DEFAULT_SHARDS))),
              redisConfig(given.getOrDefault("redis-config", "")));
      for (String key : given.keySet()) {
        if (!List.of(
                "jobs",
                "workloads",
                "nodes",
                "executors",
                "queues",
                "warmup-s",
                "window-s",
                "child-jvm",
                "write-jobs",
                "write-at",
                "shards",
                "redis-config")
            .contains(key)) {
          throw new IllegalArgumentException("unknown option --" + key + "\n" + usage());
        }
      }
      if (o.nodes < 1 || o.executors < 1 || o.queues < o.executors || o.window.isZero()) {
        throw new IllegalArgumentException("need nodes ≥ 1, 1 ≤ executors ≤ queues, window > 0");
      }
      if (o.shards < 1 || o.shards > 16384) {
        throw new IllegalArgumentException("--shards must be 1 to 16384");
      }
      if (o.writeJobs < 0 || o.writeJobs > JobApi.MAX_BATCH * 100) {
        throw new IllegalArgumentException(
            "--write-jobs must be 0 (off) to " + JobApi.MAX_BATCH * 100);
      }
      return o;
    }

    /** {@code name:value,name:value} → CONFIG SET pairs, in order. */
    private static Map<String, String> redisConfig(String given) {
      Map<String, String> config = new LinkedHashMap<>();
      for (String pair : given.split(",")) {
        if (pair.isBlank()) {
          continue;
        }
        int colon = pair.indexOf(':');
        if (colon <= 0) {
          throw new IllegalArgumentException(
              "--redis-config takes name:value pairs separated by commas, got '" + pair + "'");
        }
        config.put(pair.substring(0, colon).trim(), pair.substring(colon + 1).trim());
      }
      return config;
    }
  }

  static String usage() {
    return "options: --jobs=100,1000,2000,5000 --workloads=W1,W2 --nodes=2 --executors=2"
        + " --queues=4 --warmup-s=10 --window-s=60 --child-jvm="
        + String.join(",", BENCH_CHILD_JVM_OPTIONS)
        + " --write-jobs=10000 --write-at=1000 --shards=64"
        + " --redis-config= (CONFIG SET pairs, e.g. rdbcompression:no)";
  }

  private final Options options;
  private final Path dir;
  private final String id = "bench-" + UUID.randomUUID().toString().substring(0, 6);
  private final AtomicBoolean closed = new AtomicBoolean();
  private EmbeddedInfrastructure infra;
  private KairosRedis redis;
  private RedisKeys keys;
  private DrillCluster cluster;
  private StartLedger ledger;
  private JobApi api;
  private CpuMeter meter;
  private int rowCount;

  ClusterBench(Options options, Path dir) {
    this.options = options;
    this.dir = dir.toAbsolutePath();
  }

  public static void main(String[] args) {
    Options options = Options.parse(args);
    String stamp =
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now());
    ClusterBench bench = new ClusterBench(options, Path.of("target", "cluster-bench", stamp));
    Thread hook = new Thread(bench::close, "cluster-bench-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    int status = 0;
    try {
      bench.run();
    } catch (Exception e) {
      System.out.println("bench: FAILED: " + e);
      e.printStackTrace(System.out);
      status = 1;
    } finally {
      bench.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down (Ctrl-C): the hook closes
      }
    }
    // RocketMQ and ZooKeeper leave non-daemon threads behind their shutdown.
    System.exit(status);
  }

  void run() throws InterruptedException {
    say(
        "ClusterBench %s, %d cores, Java %s, load %.2f; %s; nodes=%d executors=%d queues=%d,"
            + " shards=%d, child JVM %s; logs under %s",
        Instant.now(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        ProcStat.readLoadAverage1(),
        options.workloads() + " × jobs " + options.jobs(),
        options.nodes(),
        options.executors(),
        options.queues(),
        options.shards(),
        options.childJvmOptions(),
        dir);
    if (!options.redisConfig().isEmpty()) {
      say("Redis CONFIG SET %s", options.redisConfig());
    }
    startCluster();
    List<BenchRow> rows = new ArrayList<>();
    List<WriteProbe> writes = new ArrayList<>();
    List<String> previous = List.of();
    for (Workload workload : options.workloads()) {
      for (int jobs : options.jobs()) {
        removeJobs(previous);
        List<String> ids = new ArrayList<>();
        BenchRow row = runRow(workload, jobs, ids);
        previous = ids;
        rows.add(row);
        say("ROW %s", row.mainLine());
        say("CPU %s", row.cpuLine());
        say("JIT %s", row.jitLine());
        say("SWITCHES %s", row.switchesLine());
        say("STAGES %s", row.stagesLine());
        if (workload == Workload.W1 && jobs == options.writeAt() && options.writeJobs() > 0) {
          WriteProbe probe = measureWrites(workload, ids);
          writes.add(probe);
          say("WRITES %s", probe.line());
        }
        if (!row.keepsUp()) {
          say(
              "%s at %d jobs does not keep up (missed > %.1f %% or p99 ≥ %d ms): ladder stops",
              workload, jobs, KeepUp.MAX_MISSED_FRACTION * 100, KeepUp.MAX_P99_MS);
          break;
        }
      }
    }
    removeJobs(previous);
    System.out.println();
    System.out.println(
        "ClusterBench results (window "
            + options.window().toSeconds()
            + " s, warm-up "
            + options.warmup().toSeconds()
            + " s; the bench JVM hosts the RocketMQ NameServer + Broker and ZooKeeper:"
            + " its CPU is infrastructure):");
    System.out.println();
    System.out.println(BenchRow.mainHeader());
    rows.forEach(r -> System.out.println(r.mainLine()));
    System.out.println();
    System.out.println("CPU over the window, seconds (µs per fire started in the window):");
    System.out.println();
    System.out.println(BenchRow.cpuHeader(List.copyOf(meter.pids().keySet().stream().toList())));
    rows.forEach(r -> System.out.println(r.cpuLine()));
    System.out.println();
    System.out.println(BenchRow.jitHeader(List.copyOf(meter.pids().keySet().stream().toList())));
    rows.forEach(r -> System.out.println(r.jitLine()));
    System.out.println();
    System.out.println(
        "Context switches per fire started in the window (voluntary + involuntary, all threads):");
    System.out.println();
    System.out.println(
        BenchRow.switchesHeader(List.copyOf(meter.pids().keySet().stream().toList())));
    rows.forEach(r -> System.out.println(r.switchesLine()));
    if (!writes.isEmpty()) {
      System.out.println();
      System.out.println("Writes through the API while a row's jobs keep firing:");
      System.out.println();
      System.out.println(WriteProbe.header());
      writes.forEach(w -> System.out.println(w.line()));
    }
  }

  private void startCluster() {
    long began = System.nanoTime();
    infra =
        EmbeddedInfrastructure.builder()
            .workDir(dir.resolve("infra"))
            .redis(RedisMode.STANDALONE)
            .zookeeper(ZkMode.STANDALONE)
            .rocketMq(true)
            .start();
    redis = KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(30));
    options.redisConfig().forEach((name, value) -> redis.sync().configSet(name, value));
    // What the first node would write; here so executors can start beside the nodes, which adopt
    // the stored shard count.
    keys = new RedisKeys(ClusterMetadata.initialise(redis, options.shards()));
    // Created in-process: the executors' own creation goes through a 5 s admin timeout.
    infra
        .rocketMq()
        .createTopic(TopicNames.handlerTopic(id, StartRecorder.HANDLER), options.queues());
    cluster = new DrillCluster(infra, dir, id, options.queues(), options.childJvmOptions());
    for (int i = 0; i < options.nodes(); i++) {
      cluster.startNode();
    }
    for (int i = 0; i < options.executors(); i++) {
      cluster.startExecutor();
    }
    cluster.awaitMembers(cluster.nodes(), options.nodes(), START_DEADLINE);
    DrillNode leader = cluster.awaitLeader(cluster.nodes(), START_DEADLINE);
    for (DrillExecutor executor : cluster.executors()) {
      cluster.awaitExecutorSlot(executor, START_DEADLINE);
    }
    ledger = new StartLedger(redis, keys);
    // Jobs go through a follower when there is one: the leader is busy scanning.
    DrillNode front = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElse(leader);
    api = new JobApi(front.port(), cluster.adminToken());
    Map<String, Long> pids = new LinkedHashMap<>();
    cluster.nodes().forEach(n -> pids.put(n.name(), n.process().pid()));
    cluster.executors().forEach(e -> pids.put(e.process().name(), e.process().pid()));
    ProcessHandle.current()
        .descendants()
        .filter(ClusterBench::isRedisServer)
        .forEach(p -> pids.put("redis-server", p.pid()));
    if (!pids.containsKey("redis-server")) {
      throw new IllegalStateException("no redis-server among this JVM's child processes");
    }
    pids.put(BENCH_JVM, ProcessHandle.current().pid());
    meter = new CpuMeter(pids, ProcStat.clockTicksPerSecond());
    say(
        "cluster up in %d s: %s leads, jobs created through %s; processes %s; PostgreSQL not"
            + " started (kairos.sync.enabled=false)",
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began),
        leader.name(),
        front.name(),
        pids);
  }

  private BenchRow runRow(Workload workload, int jobs, List<String> ids)
      throws InterruptedException {
    int row = ++rowCount;
    double loadBefore = ProcStat.readLoadAverage1();
    String prefix = workload.name().toLowerCase() + "-r" + row + "-";
    for (int i = 0; i < jobs; i++) {
      ids.add(prefix + i);
    }
    List<List<Integer>> calls = workload.imports(jobs, JobApi.MAX_BATCH);
    long createStart = System.nanoTime();
    // W1: one sweep over the second; a band's call waits for its offset, never for a later second,
    // so slow calls make phases lag (the busiest band shows it) instead of stretching the import.
    long sweep = Math.floorDiv(System.currentTimeMillis(), 1000) * 1000 + 1000;
    for (List<Integer> call : calls) {
      if (workload == Workload.W1) {
        sleepUntil(sweep + Workload.bandOf(call.get(0), jobs) * 1000L / Workload.PHASE_BANDS);
      }
      api.importJobs(call.stream().map(i -> workload.job(ids.get(i), id)).toList());
      if (System.nanoTime() - createStart > CREATE_DEADLINE.toNanos()) {
        throw new IllegalStateException("creating " + jobs + " jobs exceeded " + CREATE_DEADLINE);
      }
    }
    double createdSeconds = (System.nanoTime() - createStart) / 1e9;
    say(
        "%s row %d: created %d jobs in %.2f s (%d import calls)",
        workload, row, jobs, createdSeconds, calls.size());
    Map<String, Long> createdMs = createdMs(ids);
    int[] bands = new int[Workload.PHASE_BANDS];
    createdMs.values().forEach(c -> bands[(int) (Math.floorMod(c, 1000L) / 10)]++);
    int busiestBand = workload == Workload.W1 ? Arrays.stream(bands).max().orElse(0) : jobs;
    if (workload == Workload.W1) {
      say(
          "W1 row %d: phases over the second: busiest 10 ms band holds %d jobs (even: %.1f)",
          row, busiestBand, jobs / (double) Workload.PHASE_BANDS);
    }
    DrillJobs drillJobs = new DrillJobs(ids);
    Poll.until(
        CLAIM_DEADLINE,
        Duration.ofSeconds(1),
        "the leader claims a first fire of every job",
        () -> drillJobs.unclaimed(redis, keys).isEmpty());
    say(
        "%s row %d: every job claimed once; warm-up %d s",
        workload, row, options.warmup().toSeconds());
    Thread.sleep(options.warmup().toMillis()); // a timed phase of the run, not a wait for a state
    long from = sleepUntil(Math.floorDiv(System.currentTimeMillis(), 1000) * 1000 + 1000);
    redis.sync().configResetstat();
    RedisPersistence persistedBefore = RedisPersistence.parse(redis.sync().info());
    CpuMeter.Sample before = meter.sample();
    long to = sleepUntil(from + options.window().toMillis());
    CpuMeter.Sample after = meter.sample();
    RedisCommandStats commands = RedisCommandStats.parse(redis.sync().info("commandstats"));
    RedisPersistence persisted = RedisPersistence.parse(redis.sync().info());
    CpuMeter.Usage cpu = meter.between(before, after);
    List<String> expected = expectedFires(workload, createdMs, from, to);
    say(
        "%s row %d: window [%d, %d) over; %d expected fires; draining (cap %d s)",
        workload, row, from, to, expected.size(), DRAIN_CAP.toSeconds());
    say("REDIS %s row %d: %s", workload, row, commands.perFireLine(expected.size(), 8));
    say("REDIS-DATA %s row %d: %s", workload, row, persisted.line(persistedBefore));
    StartLedger.Outcome outcome = drain(expected, to + DRAIN_CAP.toMillis());
    Map<String, List<StartLedger.Start>> logged = StartLedger.readLogs(cluster.executors());
    long startsInWindow =
        logged.values().stream()
            .flatMap(List::stream)
            .filter(s -> s.startMs() >= from && s.startMs() < to)
            .count();
    List<Long> lateness = new ArrayList<>();
    long early = 0;
    for (Map.Entry<String, Long> e : outcome.firstStartMs().entrySet()) {
      long late = e.getValue() - fireMs(e.getKey());
      lateness.add(late);
      if (late < 0) {
        early++;
      }
    }
    Map<String, Long[]> records =
        ledger.timestamps(
            outcome.firstStartMs().keySet(), TriggerFields.DISPATCHED_MS, TriggerFields.STARTED_MS);
    List<Long> fireToAck = new ArrayList<>();
    List<Long> ackToClaim = new ArrayList<>();
    List<Long> claimToHandler = new ArrayList<>();
    records.forEach(
        (trigger, r) -> {
          Long dispatched = r[0];
          Long started = r[1];
          if (dispatched != null) {
            fireToAck.add(dispatched - fireMs(trigger));
          }
          if (dispatched != null && started != null) {
            ackToClaim.add(started - dispatched);
          }
          List<StartLedger.Start> starts = logged.get(trigger);
          if (started != null && starts != null) {
            long handler =
                starts.stream().mapToLong(StartLedger.Start::startMs).min().orElseThrow();
            claimToHandler.add(handler - started);
          }
        });
    return new BenchRow(
        workload,
        jobs,
        createdSeconds,
        calls.size(),
        busiestBand,
        (to - from) / 1000,
        expected.size(),
        outcome.firstStartMs().size(),
        outcome.missed().size(),
        outcome.duplicates().size(),
        early,
        Dist.of(lateness),
        startsInWindow,
        Dist.of(fireToAck),
        Dist.of(ackToClaim),
        Dist.of(claimToHandler),
        cpu,
        loadBefore,
        ProcStat.readLoadAverage1());
  }

  /**
   * While {@code rowIds} keep firing: imports {@code --write-jobs} parked jobs ({@link
   * Workload#parkedJob}, created disabled), enables them, deletes them, each through the API at
   * most {@link JobApi#MAX_BATCH} per call, and reports how the row's fires scheduled during those
   * calls started.
   */
  private WriteProbe measureWrites(Workload workload, List<String> rowIds)
      throws InterruptedException {
    int count = options.writeJobs();
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add("write-r" + rowCount + "-" + i);
    }
    Map<String, Long> createdMs = createdMs(rowIds);
    long from = System.currentTimeMillis();
    long began = System.nanoTime();
    chunks(ids)
        .forEach(
            call -> api.importJobs(call.stream().map(j -> Workload.parkedJob(j, id)).toList()));
    long created = System.nanoTime();
    everyCall(ids, api::enableJobs, "enable");
    long enabled = System.nanoTime();
    everyCall(ids, api::deleteJobs, "delete");
    long deleted = System.nanoTime();
    long to = System.currentTimeMillis();
    List<String> expected = expectedFires(workload, createdMs, from, to);
    StartLedger.Outcome outcome = drain(expected, to + DRAIN_CAP.toMillis());
    List<Long> lateness = new ArrayList<>();
    outcome.firstStartMs().forEach((trigger, start) -> lateness.add(start - fireMs(trigger)));
    return new WriteProbe(
        rowIds.size(),
        count,
        (created - began) / 1e9,
        (enabled - created) / 1e9,
        (deleted - enabled) / 1e9,
        expected.size(),
        outcome.missed().size(),
        outcome.duplicates().size(),
        Dist.of(lateness));
  }

  /** Applies a batch call to {@code ids} in chunks; every id must be found. */
  private static void everyCall(
      List<String> ids, java.util.function.ToIntFunction<List<String>> call, String what) {
    for (List<String> chunk : chunks(ids)) {
      int done = call.applyAsInt(chunk);
      if (done != chunk.size()) {
        throw new IllegalStateException(what + " found " + done + " of " + chunk.size() + " jobs");
      }
    }
  }

  /** Trigger ids of the fires of the jobs {@code createdMs} names in {@code [from, to)}. */
  private static List<String> expectedFires(
      Workload workload, Map<String, Long> createdMs, long from, long to) {
    List<String> expected = new ArrayList<>();
    createdMs.forEach(
        (job, created) -> {
          for (long t : Workload.fireTimes(workload.schedule(created), from, to)) {
            expected.add(job + ":" + t);
          }
        });
    return expected;
  }

  private static List<List<String>> chunks(List<String> ids) {
    List<List<String>> calls = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += JobApi.MAX_BATCH) {
      calls.add(ids.subList(from, Math.min(ids.size(), from + JobApi.MAX_BATCH)));
    }
    return calls;
  }

  /** Sleeps until the wall clock reads {@code epochMs}; returns it. */
  private static long sleepUntil(long epochMs) throws InterruptedException {
    long left;
    while ((left = epochMs - System.currentTimeMillis()) > 0) {
      Thread.sleep(left);
    }
    return epochMs;
  }

  /**
   * Polls the start logs until every expected fire started (or was claimed), or the cap passes: a
   * fire with no start by then is missed.
   */
  private StartLedger.Outcome drain(List<String> expected, long capEpochMs)
      throws InterruptedException {
    while (true) {
      StartLedger.Outcome outcome = ledger.observe(expected, cluster.executors());
      boolean complete = outcome.missed().isEmpty() && outcome.claimedNotLogged().isEmpty();
      if (complete || System.currentTimeMillis() >= capEpochMs) {
        return outcome;
      }
      Thread.sleep(2_000);
    }
  }

  /** Deletes {@code ids} through the API and waits until no handler start is logged for 5 s. */
  private void removeJobs(List<String> ids) {
    if (ids.isEmpty()) {
      return;
    }
    long began = System.nanoTime();
    chunks(ids).forEach(api::deleteJobs);
    long[] last = {-1, System.nanoTime()};
    Poll.until(
        QUIET_DEADLINE,
        Duration.ofMillis(500),
        "no handler start for " + QUIET_FOR.toSeconds() + " s after deleting the row's jobs",
        () -> {
          long size = startLogBytes();
          if (size != last[0]) {
            last[0] = size;
            last[1] = System.nanoTime();
            return false;
          }
          return System.nanoTime() - last[1] >= QUIET_FOR.toNanos();
        });
    say(
        "deleted %d jobs through the API; quiet after %.1f s",
        ids.size(), (System.nanoTime() - began) / 1e9);
  }

  private long startLogBytes() {
    long total = 0;
    for (DrillExecutor e : cluster.executors()) {
      try {
        total += Files.exists(e.startLog()) ? Files.size(e.startLog()) : 0;
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }
    return total;
  }

  /** Creation time of every job (the FIXED_RATE anchor), read from its hash in Redis. */
  private Map<String, Long> createdMs(List<String> ids) {
    Map<String, RedisFuture<String>> reads = new LinkedHashMap<>();
    for (String job : ids) {
      reads.put(
          job, redis.async().hget(RedisKeys.job(keys.shardOf(job), job), JobFields.CREATED_MS));
    }
    Map<String, Long> created = new LinkedHashMap<>();
    reads.forEach(
        (job, read) -> {
          try {
            created.put(job, Long.parseLong(read.get(30, TimeUnit.SECONDS)));
          } catch (Exception e) {
            throw new IllegalStateException("cannot read createdMs of job " + job, e);
          }
        });
    return created;
  }

  /** devinfra extracts the binary as {@code redis-server-<version>-<os>-<arch>}. */
  private static boolean isRedisServer(ProcessHandle p) {
    return p.info()
        .command()
        .map(c -> Path.of(c).getFileName().toString().startsWith("redis-server"))
        .orElse(false);
  }

  private static long fireMs(String triggerId) {
    return Long.parseLong(triggerId.substring(triggerId.lastIndexOf(':') + 1));
  }

  private static void say(String format, Object... args) {
    System.out.println("bench: " + String.format(java.util.Locale.ROOT, format, args));
  }

  /** Kills the child JVMs, then closes Redis and the infrastructure; close twice is a no-op. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      try {
        if (redis != null) {
          redis.close();
        }
      } finally {
        if (infra != null) {
          infra.close();
        }
      }
    }
  }
}
