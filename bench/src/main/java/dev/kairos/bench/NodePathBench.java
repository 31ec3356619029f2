package dev.kairos.bench;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.coordinator.scan.ScanLoop;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.core.time.RedisTimeSource;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.node.fire.FirePathSettings;
import dev.kairos.node.fire.NodeFirePath;
import dev.kairos.node.fire.RocketMqTriggerSender;
import dev.kairos.node.fire.SlotRouter;
import dev.kairos.node.fire.TopicEnsurer;
import dev.kairos.node.fire.TriggerSender;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.slot.SlotInfo;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

/**
 * Publish lateness through the node's whole fire path (issue #4): the leader's {@link ScanLoop}
 * claims fires of real jobs into the node's persisted wheel ({@code claim_fires.lua}), the node's
 * {@link NodeFirePath} loads them into its timing wheel, takes them wheel → inflight ({@code
 * take_due.lua}), routes, sends to the embedded RocketMQ within its send window, and records
 * DISPATCHED ({@code ack_dispatched.lua}, pipelined). Lateness = cluster time at the broker's
 * {@code SEND_OK} − scheduled fire time, for every fire of the measured seconds.
 *
 * <p>Everything runs in this JVM on the same cores: a 3-master Redis Cluster, the broker, the
 * scanner and the node. Routing uses 8 fixed slots (no slot leases in Redis). Workloads: W1 = N
 * FIXED_RATE 1 s jobs phased evenly over the second, W2 = N such jobs all due on the same
 * millisecond.
 *
 * <p>The measured seconds begin after a warm-up at the same rate (default 20 s): the JIT compiles
 * the fire path and the first scan's burst drains first, so the rows show the steady state.
 *
 * <p>Args: {@code [seconds=15] [fires/s list=1000,10000] [workloads=W1,W2] [maxUnackedSends=2000]
 * [warm-up s=20]}.
 */
public final class NodePathBench {

  private static final String APP = "nodebench";
  private static final String HANDLER = "publish";
  private static final String NODE = "bench-node";
  private static final int QUEUES = 8;
  private static final long LEAD_MS = 7_000;

  /**
   * The benches' wait for a live executor: half the default re-send delay, as they have always run
   * (the node ships {@link FirePathSettings#DEFAULT_NO_EXECUTOR_GRACE}).
   */
  static final Duration BENCH_NO_EXECUTOR_GRACE = Duration.ofSeconds(5);

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    int[] rates =
        args.length > 1
            ? Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1_000, 10_000};
    String[] workloads = args.length > 2 ? args[2].split(",") : new String[] {"W1", "W2"};
    int window = args.length > 3 ? Integer.parseInt(args[3]) : 2_000;
    int warmup = args.length > 4 ? Integer.parseInt(args[4]) : 20;
    System.out.println(
        "NodePathBench start: "
            + Machine.describe()
            + ", send window "
            + window
            + ", warm-up "
            + warmup
            + " s");
    Path dir = Files.createTempDirectory("kairos-node-path-bench");
    List<String> rows = new ArrayList<>();
    try (EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(dir.resolve("redis"), 3);
        EmbeddedRocketMq mq = EmbeddedRocketMq.start(dir.resolve("mq"))) {
      String topic = TopicNames.handlerTopic(APP, HANDLER);
      mq.createTopic(topic, QUEUES);
      DefaultMQProducer producer = new DefaultMQProducer("kairos_node_path_bench");
      producer.setNamesrvAddr(mq.nameServerAddress());
      producer.setInstanceName("kairos-node-path-bench");
      producer.setSendMsgTimeout(3_000);
      producer.start();
      try {
        for (String w : workloads) {
          for (int rate : rates) {
            for (int i = 0; i < cluster.size(); i++) {
              cluster.flushNode(i);
            }
            String row = run(cluster, producer, w, rate, seconds, window, warmup);
            System.out.println(row);
            rows.add(row);
          }
        }
      } finally {
        producer.shutdown();
      }
    } finally {
      ClaimBench.deleteRecursively(dir);
    }
    System.out.println("NodePathBench end: load average " + Machine.loadAverage());
    System.out.println(
        "| workload | fires/s | fires | acked | missed | duplicates | fire→ack p50 ms | p99 |"
            + " p99.9 | max | window overflow | inflight re-sent | load before → after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    rows.forEach(System.out::println);
  }

  private static String run(
      EmbeddedRedisCluster cluster,
      DefaultMQProducer producer,
      String workload,
      int rate,
      int seconds,
      int window,
      int warmup)
      throws Exception {
    String loadBefore = Machine.loadAverage();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(10));
        ClusterClock clock = new ClusterClock(new RedisTimeSource(redis))) {
      clock.start();
      RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, RedisKeys.DEFAULT_SHARDS));
      JobStore jobs = new JobStore(redis, keys, clock);
      // Jobs first fire LEAD_MS from now; the measured seconds start after one second and the
      // warm-up.
      long base = (clock.nowMs() / 1_000 + LEAD_MS / 1_000) * 1_000;
      for (int i = 0; i < rate; i++) {
        long phase = workload.equals("W1") ? (long) i * 1_000 / rate : 0;
        jobs.create(
            JobDefinition.builder("nb-" + workload + "-" + rate + "-" + i)
                .app(APP)
                .handler(HANDLER)
                .fixedRate(1_000)
                .createdMs(base - 1_000 + phase)
                .build());
      }
      long from = base + 1_000 + warmup * 1_000L;
      long to = from + seconds * 1_000L; // exclusive
      if (clock.nowMs() > from - 2_000) {
        System.out.printf(
            "warning: creating %d jobs took until %d ms before the window%n",
            rate, from - clock.nowMs());
      }
      Recorder fireToAck = new Recorder(rate * seconds * 2);
      Map<String, Boolean> seen = new ConcurrentHashMap<>();
      LongAdder duplicates = new LongAdder();
      RocketMqTriggerSender real = new RocketMqTriggerSender(producer, Duration.ofSeconds(3));
      TriggerSender timed =
          (message, slot) ->
              real.send(message, slot)
                  .whenComplete(
                      (ok, failure) -> {
                        if (failure != null) {
                          return;
                        }
                        String id = message.triggerId();
                        long fireMs = message.scheduledFireMs();
                        if (fireMs < from || fireMs >= to) {
                          return;
                        }
                        if (seen.putIfAbsent(id, Boolean.TRUE) != null) {
                          duplicates.increment();
                          return;
                        }
                        fireToAck.record((clock.nowMs() - fireMs) * 1_000);
                      });
      List<SlotInfo> slots = new ArrayList<>();
      for (int s = 0; s < QUEUES; s++) {
        slots.add(
            new SlotInfo("exec-" + s, "bench", List.of(HANDLER), s, 0, Long.MAX_VALUE, false));
      }
      NodeWheelStore store =
          new NodeWheelStore(redis, keys, NODE, 1_000_000, Duration.ofSeconds(10), meters);
      ShardFence fence = new ShardFence(redis, keys, Duration.ofSeconds(10));
      long term = fence.highestFence() + 1;
      try (NodePathHolder holder = new NodePathHolder()) {
        holder.path =
            new NodePathHolder.Path(
                new NodeFirePath(
                    store,
                    new SlotRouter(app -> slots, Duration.ofSeconds(1), System::nanoTime),
                    new TopicEnsurer(t -> {}, Duration.ofSeconds(1), System::nanoTime),
                    timed,
                    clock,
                    () -> term,
                    FirePathSettings.builder()
                        .maxUnackedSends(window)
                        .noExecutorGrace(BENCH_NO_EXECUTOR_GRACE)
                        .preDispatch(Duration.ZERO)
                        .build(),
                    meters));
        holder.path.firePath().start();
        DueFireScanner scanner =
            new DueFireScanner(
                redis,
                keys,
                ScanConfig.defaults(),
                clock,
                StaticLiveNodes.of(NODE),
                new ConsistentHashAssigner(),
                holder.path.firePath(),
                new FireWindow(),
                meters);
        holder.loop = new ScanLoop(term, fence, scanner, Duration.ofSeconds(1), e -> {}, meters);
        holder.loop.start();
        long expected = (long) rate * seconds;
        long deadline = to + 30_000;
        while (clock.nowMs() < deadline && seen.size() < expected) {
          Thread.sleep(200);
        }
        long[] sorted = fireToAck.sorted();
        return String.format(
            "| %s | %,d | %,d | %,d | %,d | %,d | %.2f | %.2f | %.2f | %.2f | %,.0f | %,.0f | %s"
                + " → %s |",
            workload,
            rate,
            expected,
            seen.size(),
            expected - seen.size(),
            duplicates.sum(),
            ms(Recorder.percentile(sorted, 50)),
            ms(Recorder.percentile(sorted, 99)),
            ms(Recorder.percentile(sorted, 99.9)),
            ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]),
            meters.find("kairos.fires.window.overflow").counter() == null
                ? 0
                : meters.find("kairos.fires.window.overflow").counter().count(),
            meters.find("kairos.wheel.inflight.requeued").counter() == null
                ? 0
                : meters.find("kairos.wheel.inflight.requeued").counter().count(),
            loadBefore,
            Machine.loadAverage());
      }
    }
  }

  private static double ms(long micros) {
    return micros / 1_000.0;
  }

  /** Closes the scan loop before the fire path, whatever was started. */
  private static final class NodePathHolder implements AutoCloseable {
    record Path(NodeFirePath firePath) {}

    Path path;
    ScanLoop loop;

    @Override
    public void close() {
      if (loop != null) {
        loop.close();
      }
      if (path != null) {
        path.firePath().close();
      }
    }
  }
}
