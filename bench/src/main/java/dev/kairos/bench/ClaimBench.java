package dev.kairos.bench;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.coordinator.scan.ScanReport;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.schedule.NextDue;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.claim.ClaimOutcome;
import dev.kairos.protocol.claim.Fire;
import dev.kairos.protocol.claim.JobClaim;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Claim throughput of the leader on embedded Redis (a 3-master cluster, or one standalone server),
 * 64 shards:
 *
 * <ul>
 *   <li><b>claim</b>: {@code claim_fires.lua} alone through {@link ClaimBatch}: one fire per job,
 *       batches of B jobs, one script call per shard per batch, a shard's batches one after another
 *       and all 64 shards concurrently (async commands);
 *   <li><b>scan</b>: one whole {@link DueFireScanner#scan} pass (due range read, pipelined HGETALL,
 *       planning, assignment by consistent hash to 3 nodes, claim).
 * </ul>
 *
 * <p>For each: fires/s wall, script calls, server-side script time per call and per fire
 * (commandstats {@code cmdstat_evalsha}), Redis CPU (INFO cpu, all masters) and this JVM's CPU over
 * the run, so a shortfall can be attributed. Setup writes only what the scanner reads (the job hash
 * and its due score), pipelined; it is not timed.
 *
 * <p>Args: {@code [cluster|standalone|both=both] [jobs=20000] [batch sizes=10,100,500]}.
 */
public final class ClaimBench {

  static final long T0 = 1_800_000_000_000L;
  static final String[] NODES = {"node-0", "node-1", "node-2"};
  private static final Pattern EVAL_STATS =
      Pattern.compile("cmdstat_eval(?:sha)?:calls=(\\d+),usec=(\\d+)");
  private static final Pattern CPU = Pattern.compile("used_cpu_(?:sys|user):([0-9.]+)");

  private final String mode;
  private final List<String> uris;
  private final int jobs;
  private final KairosRedis redis;
  private final RedisKeys keys = new RedisKeys(RedisKeys.DEFAULT_SHARDS);

  ClaimBench(String mode, List<String> uris, boolean cluster, int jobs) {
    this.mode = mode;
    this.uris = uris;
    this.jobs = jobs;
    this.redis = KairosRedis.connect(uris, cluster, Duration.ofSeconds(30));
  }

  public static void main(String[] args) throws Exception {
    String which = args.length > 0 ? args[0] : "both";
    int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    int[] batches =
        args.length > 2
            ? Stream.of(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {10, 100, 500};
    System.out.println("ClaimBench start: " + Machine.describe());
    Path dir = Files.createTempDirectory("kairos-claim-bench");
    List<String> rows = new ArrayList<>();
    try {
      if (which.equals("cluster") || which.equals("both")) {
        try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(dir.resolve("cluster"), 3)) {
          ClaimBench bench = new ClaimBench("cluster 3 masters", cluster.uris(), true, jobs);
          try {
            rows.addAll(bench.runAll(batches));
          } finally {
            bench.redis.close();
          }
        }
      }
      if (which.equals("standalone") || which.equals("both")) {
        try (EmbeddedRedis single = EmbeddedRedis.start(dir.resolve("standalone"))) {
          ClaimBench bench = new ClaimBench("standalone", List.of(single.uri()), false, jobs);
          try {
            rows.addAll(bench.runAll(batches));
          } finally {
            bench.redis.close();
          }
        }
      }
    } finally {
      deleteRecursively(dir);
    }
    System.out.println("ClaimBench end: load average " + Machine.loadAverage());
    System.out.println(
        "| redis | what | batch | fires | wall s | fires/s | script calls | µs/call (server) |"
            + " µs/fire (server) | Redis CPU s | fires per Redis CPU s | bench JVM CPU s | load before →"
            + " after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    rows.forEach(System.out::println);
  }

  List<String> runAll(int[] batches) {
    List<String> rows = new ArrayList<>();
    claim(500); // warm-up (JIT, script cache, connections); not reported
    scan(500);
    rows.add(print(yardstick()));
    for (int b : batches) {
      rows.add(print(claim(b)));
    }
    for (int b : batches) {
      if (b >= 100) {
        rows.add(print(scan(b)));
      }
    }
    rows.add(print(yardstick()));
    return rows;
  }

  /**
   * How slow this machine is right now: the server time of one SET inside a Lua loop (about 1-2 µs
   * on an idle machine), 20,000 SETs on one master.
   */
  String yardstick() {
    String load = Machine.loadAverage();
    Sample a = sample();
    int sets = 20_000;
    redis
        .sync()
        .eval(
            "for i = 1, tonumber(ARGV[1]) do redis.call('SET', KEYS[1] .. i, i) end return 1",
            io.lettuce.core.ScriptOutputType.INTEGER,
            new String[] {"kairos:{yardstick}:"},
            Integer.toString(sets));
    Sample b = sample();
    return String.format(
        "| %s | yardstick: 1 scripted SET | - | %,d SETs | - | - | 1 | %.2f µs per SET | - | %.2f"
            + " | - | - | %s → %s |",
        mode,
        sets,
        (double) (b.evalMicros - a.evalMicros) / sets,
        b.redisCpu - a.redisCpu,
        load,
        Machine.loadAverage());
  }

  private static String print(String row) {
    System.out.println(row);
    return row;
  }

  /** Counters sampled before and after a measurement. */
  private record Sample(
      long nanos, long evalCalls, long evalMicros, double redisCpu, long jvmCpu) {}

  private Sample sample() {
    long calls = 0;
    long micros = 0;
    double cpu = 0;
    for (String uri : uris) {
      try (RedisClient client = RedisClient.create(uri);
          StatefulRedisConnection<String, String> c = client.connect()) {
        Matcher m = EVAL_STATS.matcher(c.sync().info("commandstats"));
        while (m.find()) {
          calls += Long.parseLong(m.group(1));
          micros += Long.parseLong(m.group(2));
        }
        Matcher cm = CPU.matcher(c.sync().info("cpu"));
        while (cm.find()) {
          cpu += Double.parseDouble(cm.group(1));
        }
      }
    }
    long jvm =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    return new Sample(System.nanoTime(), calls, micros, cpu, jvm);
  }

  private String row(String what, int batch, int fires, Sample a, Sample b, String loadBefore) {
    double wall = (b.nanos - a.nanos) / 1e9;
    long calls = b.evalCalls - a.evalCalls;
    long micros = b.evalMicros - a.evalMicros;
    return String.format(
        "| %s | %s | %d | %,d | %.2f | %,.0f | %,d | %.0f | %.1f | %.2f | %,.0f | %.2f | %s → %s |",
        mode,
        what,
        batch,
        fires,
        wall,
        fires / wall,
        calls,
        calls == 0 ? 0.0 : (double) micros / calls,
        fires == 0 ? 0.0 : (double) micros / fires,
        b.redisCpu - a.redisCpu,
        fires / Math.max(1e-3, b.redisCpu - a.redisCpu),
        (b.jvmCpu - a.jvmCpu) / 1e9,
        loadBefore,
        Machine.loadAverage());
  }

  /** claim_fires.lua alone: all shards concurrently, each shard's batches in sequence. */
  String claim(int batchSize) {
    List<List<String>> perShard = populate();
    String load = Machine.loadAverage();
    Sample a = sample();
    List<CompletableFuture<Integer>> shards = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      shards.add(claimShard(shard, perShard.get(shard), batchSize, 0));
    }
    int fires = shards.stream().mapToInt(CompletableFuture::join).sum();
    Sample b = sample();
    check(fires);
    return row("claim_fires.lua", batchSize, fires, a, b, load);
  }

  private CompletableFuture<Integer> claimShard(
      int shard, List<String> ids, int batchSize, int from) {
    if (from >= ids.size()) {
      return CompletableFuture.completedFuture(0);
    }
    ClaimBatch batch = new ClaimBatch(shard, 1, T0, 600_000);
    for (String id : ids.subList(from, Math.min(from + batchSize, ids.size()))) {
      Fire fire = new Fire(T0, NODES[Math.floorMod(id.hashCode(), NODES.length)]);
      batch.add(new JobClaim(id, T0, 1, NextDue.at(T0 + 60_000), List.of(fire)));
    }
    return batch
        .send(redis.async())
        .toCompletableFuture()
        .thenCompose(
            (ClaimOutcome outcome) ->
                claimShard(shard, ids, batchSize, from + batchSize)
                    .thenApply(rest -> rest + outcome.claimedFires()));
  }

  /** One whole scan pass of term 1 at cluster time T0. */
  String scan(int batchSize) {
    populate();
    ScanConfig config =
        ScanConfig.builder()
            .batchSize(batchSize)
            .maxBatchesPerShard(1_000_000)
            .eventsMaxLen(100_000)
            .redisTimeout(Duration.ofSeconds(60))
            .build();
    DueFireScanner scanner =
        new DueFireScanner(
            redis,
            keys,
            config,
            new SettableClock(T0),
            StaticLiveNodes.of(NODES),
            new ConsistentHashAssigner(),
            WheelNotifier.NONE,
            new FireWindow(),
            new SimpleMeterRegistry());
    String load = Machine.loadAverage();
    Sample a = sample();
    ScanReport report = scanner.scan(1);
    Sample b = sample();
    check(report.firesClaimed());
    return row("scan pass", batchSize, report.firesClaimed(), a, b, load);
  }

  private void check(int fires) {
    if (fires != jobs) {
      throw new IllegalStateException("claimed " + fires + " fires, expected " + jobs);
    }
  }

  /** Empties Redis, then writes {@code jobs} fixed-rate jobs due at T0 (hash + due score). */
  List<List<String>> populate() {
    redis.sync().flushall(); // in cluster mode Lettuce sends it to every master
    List<List<String>> perShard = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      perShard.add(new ArrayList<>());
    }
    List<CompletableFuture<?>> writes = new ArrayList<>(2 * jobs);
    for (int i = 0; i < jobs; i++) {
      JobDefinition job =
          JobDefinition.builder("bench-" + i)
              .app("app")
              .handler("h")
              .fixedRate(60_000)
              .createdMs(T0)
              .scheduleVersion(1)
              .build();
      int shard = keys.shardOf(job.id());
      perShard.get(shard).add(job.id());
      writes.add(
          redis
              .async()
              .hset(RedisKeys.job(shard, job.id()), JobHash.toHash(job))
              .toCompletableFuture());
      writes.add(redis.async().zadd(RedisKeys.due(shard), T0, job.id()).toCompletableFuture());
    }
    CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
        .orTimeout(120, TimeUnit.SECONDS)
        .join();
    return perShard;
  }

  static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (Exception e) {
      System.err.println("could not delete " + dir + ": " + e);
    }
  }
}
