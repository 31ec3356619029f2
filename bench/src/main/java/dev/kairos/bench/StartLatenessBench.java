package dev.kairos.bench;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.executor.ExecutorSettings;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.executor.KairosExecutor;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.node.fire.FirePathSettings;
import dev.kairos.node.fire.FireProperties;
import dev.kairos.node.fire.NodeFirePath;
import dev.kairos.node.fire.RocketMqTriggerSender;
import dev.kairos.node.fire.SlotRouter;
import dev.kairos.node.fire.TopicEnsurer;
import dev.kairos.node.route.SlotChoosers;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

/**
 * End-to-end start lateness: scheduled fire time → handler start on an executor, for W1 (N jobs at
 * a 1 s fixed rate, job i phased at i·1000/N ms in the second). Everything real and on this
 * machine: embedded Redis and RocketMQ; the leader's {@link DueFireScanner} every 500 ms (term 1,
 * one live node); one node's {@link NodeFirePath} with the node's default settings (batch 64, 4
 * dispatch and 4 ack threads, pre-read 5 s) and CONSISTENT_HASH routing through {@link SlotRouter};
 * two {@link KairosExecutor} instances (slots 0 and 1, 16 workers each) whose handler records its
 * start. Lateness is the handler's start by a microsecond wall clock minus the fire ms; the node
 * fires on cluster time (Redis TIME of the same machine), so a start can read a fraction of a
 * millisecond early by the clock estimate's error (counted as "early").
 *
 * <p>Per run: fires due in the measured window (after a warm-up, default 20 s, at the same rate:
 * the JIT compiles the fire path and the first scan's burst drains before anything is measured),
 * starts, missed (a fire in the window that never started within 30 s of the window's end),
 * duplicate starts (beyond the first of a trigger id), lateness p50/p99/p99.9/max.
 *
 * <p>Args: {@code [seconds=20] [jobs list=1000,10000] [standalone|cluster] [warm-up s=20]}.
 */
public final class StartLatenessBench {

  private static final String HANDLER = "bench";
  private static final int QUEUES = 8;

  private final EmbeddedInfrastructure infra;
  private final KairosRedis redis;
  private final RedisKeys keys;
  private final ClusterClock clock;
  private final MicroClock micro = new MicroClock();
  private final long warmupMs;

  private StartLatenessBench(
      EmbeddedInfrastructure infra, KairosRedis redis, ClusterClock clock, long warmupMs) {
    this.infra = infra;
    this.warmupMs = warmupMs;
    this.redis = redis;
    this.keys = new RedisKeys(ClusterMetadata.initialise(redis, RedisKeys.DEFAULT_SHARDS));
    this.clock = clock;
  }

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int[] sizes =
        args.length > 1
            ? java.util.Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1_000, 10_000};
    RedisMode mode =
        args.length > 2 && args[2].equals("cluster") ? RedisMode.CLUSTER : RedisMode.STANDALONE;
    long warmupMs = (args.length > 3 ? Integer.parseInt(args[3]) : 20) * 1_000L;
    System.out.println(
        "StartLatenessBench start: "
            + Machine.describe()
            + ", redis "
            + mode
            + ", warm-up "
            + warmupMs / 1_000
            + " s");
    Path dir = Files.createTempDirectory("kairos-start-bench");
    List<String> rows = new ArrayList<>();
    try (EmbeddedInfrastructure infra =
            EmbeddedInfrastructure.builder().workDir(dir).redis(mode).rocketMq(true).start();
        KairosRedis redis =
            mode == RedisMode.CLUSTER
                ? KairosRedis.connect(infra.redisCluster().uris(), true, Duration.ofSeconds(5))
                : KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(5));
        ClusterClock clock = new ClusterClock(new RedisTimeSource(redis))) {
      clock.start();
      StartLatenessBench bench = new StartLatenessBench(infra, redis, clock, warmupMs);
      int run = 0;
      for (int n : sizes) {
        String row = bench.run("w1-" + (++run), n, seconds);
        System.out.println(row);
        rows.add(row);
      }
    } finally {
      ClaimBench.deleteRecursively(dir);
    }
    System.out.println("StartLatenessBench end: load average " + Machine.loadAverage());
    System.out.println(
        "| workload | jobs (fires/s) | measured s | fires | started | missed | duplicate starts |"
            + " early | start lateness p50 ms | p99 | p99.9 | max | load before → after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    rows.forEach(System.out::println);
  }

  private String run(String app, int jobs, int seconds) throws Exception {
    String loadBefore = Machine.loadAverage();
    String node = app + "-node";
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    String nameServer = infra.rocketMq().nameServerAddress();
    try (TopicAdmin admin = new TopicAdmin(nameServer, "kairos")) {
      admin.start();
      admin.ensureTopic(TopicNames.handlerTopic(app, HANDLER), QUEUES, Duration.ofSeconds(60));
      admin.ensureTopic(TopicNames.RESULTS, TopicNames.RESULTS_QUEUES, Duration.ofSeconds(60));
    }
    // Fire second T0 (cluster time): everything is created and warm before it.
    long t0 = (clock.nowMs() / 1_000 + 15) * 1_000;
    long windowFrom = t0 + warmupMs;
    long windowTo = t0 + warmupMs + seconds * 1_000L;
    int expected = jobs * seconds;
    Recorder lateness = new Recorder(expected * 2);
    Map<String, AtomicInteger> starts = new ConcurrentHashMap<>(expected * 2);
    AtomicInteger early = new AtomicInteger();

    List<AutoCloseable> closing = new ArrayList<>();
    ScheduledExecutorService scanLoop =
        Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "bench-scan-" + app));
    try {
      for (int e = 0; e < 2; e++) {
        SlotLeaseConfig lease =
            SlotLeaseConfig.of(app, app + "-exec-" + e, "bench", List.of(HANDLER))
                .withSlotCount(QUEUES);
        KairosExecutor executor =
            new KairosExecutor(
                redis,
                ExecutorSettings.of(lease, nameServer),
                Map.of(
                    HANDLER, ctx -> started(ctx, windowFrom, windowTo, lateness, starts, early)));
        executor.start();
        closing.add(executor);
      }
      DefaultMQProducer producer = new DefaultMQProducer("bench_start_" + app);
      producer.setNamesrvAddr(nameServer);
      producer.setInstanceName(node);
      producer.setSendMsgTimeout(3_000);
      producer.start();
      closing.add(producer::shutdown);
      NodeWheelStore store =
          new NodeWheelStore(
              redis, keys, node, RedisKeys.DEFAULT_EVENTS_MAX_LEN, Duration.ofSeconds(5), meters);
      NodeFirePath path =
          new NodeFirePath(
              store,
              new SlotRouter(
                  new SlotRegistry(redis)::read,
                  FireProperties.DEFAULT_SLOT_CACHE_TTL,
                  System::nanoTime,
                  SlotChoosers.create()),
              new TopicEnsurer(topic -> {}, Duration.ofSeconds(1), System::nanoTime),
              new RocketMqTriggerSender(producer, Duration.ofSeconds(3)),
              clock,
              () -> 1,
              FirePathSettings.builder()
                  .noExecutorGrace(NodePathBench.BENCH_NO_EXECUTOR_GRACE)
                  .preDispatch(Duration.ZERO)
                  .build(),
              meters);
      path.start();
      closing.add(path);
      ShardFence fence = new ShardFence(redis, keys, Duration.ofSeconds(5));
      long term = fence.highestFence() + 1;
      fence.raiseAll(term);
      DueFireScanner scanner =
          new DueFireScanner(
              redis,
              keys,
              ScanConfig.defaults(),
              clock,
              StaticLiveNodes.of(node),
              new ConsistentHashAssigner(),
              path,
              new FireWindow(),
              meters);

      // Job i is anchored (created) at T0 + i·1000/N: it fires at that phase of every second.
      SettableClock anchor = new SettableClock(t0);
      JobStore creator = new JobStore(redis, keys, anchor);
      List<String> ids = new ArrayList<>(jobs);
      for (int i = 0; i < jobs; i++) {
        anchor.set(t0 + (i * 1_000L) / jobs);
        String id = app + "-" + i;
        creator.create(
            JobDefinition.builder(id)
                .app(app)
                .handler(HANDLER)
                .fixedRate(1_000)
                .routing(RoutingStrategy.CONSISTENT_HASH)
                .build());
        ids.add(id);
      }
      if (clock.nowMs() > t0 - 2_000) {
        System.out.printf(
            "  warning: creating %d jobs ended %d ms before T0 (wanted >= 2000)%n",
            jobs, t0 - clock.nowMs());
      }
      scanLoop.scheduleWithFixedDelay(
          () -> {
            try {
              scanner.scan(term);
            } catch (RuntimeException ex) {
              System.out.println("  scan failed, will keep scanning: " + ex);
            }
          },
          0,
          500,
          TimeUnit.MILLISECONDS);
      while (clock.nowMs() < windowTo) {
        Thread.sleep(200); // the run's length
      }
      JobStore jobStore = new JobStore(redis, keys, clock);
      for (String id : ids) {
        jobStore.disable(id);
      }
      scanLoop.shutdown();
      long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (countStarted(starts) < expected && System.nanoTime() < drainUntil) {
        Thread.sleep(200);
      }
      for (AutoCloseable c : closing) {
        if (c instanceof KairosExecutor x) {
          System.out.println("  executor " + x.health() + " " + x.stats());
        }
      }
      System.out.println(
          "  missed fires by trigger record state: "
              + missedByState(redis, keys, ids, t0, jobs, windowFrom, windowTo, starts));
    } finally {
      scanLoop.shutdownNow();
      for (int i = closing.size() - 1; i >= 0; i--) {
        try {
          closing.get(i).close();
        } catch (Exception ex) {
          System.out.println("  closing failed: " + ex);
        }
      }
    }
    int started = countStarted(starts);
    int duplicates = starts.values().stream().mapToInt(c -> c.get() - 1).sum();
    long[] sorted = lateness.sorted();
    return String.format(
        "| W1 | %,d | %d | %,d | %,d | %,d | %,d | %,d | %s | %s → %s |",
        jobs,
        seconds,
        expected,
        started,
        expected - started,
        duplicates,
        early.get(),
        Recorder.summaryMs(sorted).trim().replaceAll("\\s+", " | "),
        loadBefore,
        Machine.loadAverage());
  }

  /**
   * Why fires were missed: the state of each missed fire's trigger record (none = never claimed).
   */
  private static Map<String, Integer> missedByState(
      KairosRedis redis,
      RedisKeys keys,
      List<String> ids,
      long t0,
      int jobs,
      long windowFrom,
      long windowTo,
      Map<String, AtomicInteger> starts) {
    Map<String, Integer> byState = new java.util.TreeMap<>();
    for (int i = 0; i < ids.size(); i++) {
      long phase = t0 + (i * 1_000L) / jobs;
      for (long fire = phase; fire < windowTo; fire += 1_000) {
        String triggerId = ids.get(i) + ":" + fire;
        if (fire < windowFrom || starts.containsKey(triggerId)) {
          continue;
        }
        List<io.lettuce.core.KeyValue<String, String>> record =
            redis
                .sync()
                .hmget(RedisKeys.trigger(keys.shardOf(ids.get(i)), triggerId), "state", "slot");
        String state =
            record.get(0).getValueOrElse("none") + " slot " + record.get(1).getValueOrElse("-");
        byState.merge(state, 1, Integer::sum);
      }
    }
    return byState;
  }

  private static int countStarted(Map<String, AtomicInteger> starts) {
    return starts.size();
  }

  /** The handler: records the start of fires in the measured window. Runs on executor workers. */
  private void started(
      JobContext ctx,
      long windowFrom,
      long windowTo,
      Recorder lateness,
      Map<String, AtomicInteger> starts,
      AtomicInteger early) {
    long nowMicros = micro.nowMicros();
    long fireMs = ctx.scheduledFireMs();
    if (fireMs < windowFrom || fireMs >= windowTo) {
      return;
    }
    long late = nowMicros - fireMs * 1_000;
    if (late < 0) {
      early.incrementAndGet();
    }
    lateness.record(late);
    starts.computeIfAbsent(ctx.triggerId(), k -> new AtomicInteger()).incrementAndGet();
  }
}
