package dev.kairos.bench;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.timer.TimedEntry;
import dev.kairos.core.timer.TimingWheel;
import dev.kairos.core.timer.WheelTicker;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * Publish lateness: fire time → RocketMQ broker ack (the async send callback with {@code SEND_OK}),
 * on the embedded RocketMQ (NameServer + one broker in this JVM). Path measured: {@link
 * TimingWheel} + {@link WheelTicker} on a microsecond wall clock → dispatch executor (4 threads,
 * batches of 64, the node's defaults) → per entry a {@link TriggerMessage} built and JSON-encoded
 * by {@link MessageCodec} → {@code producer.send(message, SlotQueueSelector, slot, callback)} to a
 * handler topic with 8 queues (slot = hash of the trigger id mod 8).
 *
 * <p>Not included: Redis (no claim, no {@code take_due.lua} before the send, no {@code
 * ack_dispatched.lua} after it), slot lookup in Redis, cluster-clock sampling, consumers.
 *
 * <p>Args: {@code [seconds=15] [fires/s list=1000,10000] [workloads=W1,W2] [maxInflight=0]}: with
 * {@code maxInflight > 0} a dispatch thread waits while that many sends are unacknowledged
 * (back-pressure: lateness grows instead of sends timing out); 0 = unbounded, as RocketMQ's async
 * send is by default.
 */
public final class PublishLatenessBench {

  static final int QUEUES = 8;
  private static final SlotQueueSelector SELECTOR = new SlotQueueSelector();
  private static final MessageCodec CODEC = new MessageCodec();
  private static final String APP = "bench";
  private static final String HANDLER = "publish";

  /** Send failures by kind (exception class and the start of its message), for the report. */
  private final java.util.concurrent.ConcurrentHashMap<String, LongAdder> errors =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final DefaultMQProducer producer;
  private final String topic;

  private final java.util.concurrent.Semaphore inflight;

  PublishLatenessBench(DefaultMQProducer producer, String topic, int maxInflight) {
    this.producer = producer;
    this.topic = topic;
    this.inflight = maxInflight > 0 ? new java.util.concurrent.Semaphore(maxInflight) : null;
  }

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    int[] rates =
        args.length > 1
            ? java.util.Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1_000, 10_000};
    String[] workloads = args.length > 2 ? args[2].split(",") : new String[] {"W1", "W2"};
    int maxInflight = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    System.out.println(
        "PublishLatenessBench start: " + Machine.describe() + ", maxInflight " + maxInflight);
    Path dir = Files.createTempDirectory("kairos-publish-bench");
    List<String> rows = new ArrayList<>();
    try (EmbeddedRocketMq mq = EmbeddedRocketMq.start(dir)) {
      String topic = TopicNames.handlerTopic(APP, HANDLER);
      mq.createTopic(topic, QUEUES);
      DefaultMQProducer producer = new DefaultMQProducer("kairos_bench_producer");
      producer.setNamesrvAddr(mq.nameServerAddress());
      producer.setInstanceName("kairos-bench");
      producer.setSendMsgTimeout(3_000);
      producer.start();
      try {
        PublishLatenessBench bench = new PublishLatenessBench(producer, topic, maxInflight);
        bench.run(Workload.W1, 1_000, 3, false); // warm-up: route, connections, JIT
        for (String w : workloads) {
          for (int rate : rates) {
            String row = bench.run(Workload.valueOf(w), rate, seconds, true);
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
    System.out.println("PublishLatenessBench end: load average " + Machine.loadAverage());
    System.out.println(
        "| workload | fires/s | s | fires | acked | missed | send errors | fire→ack p50 ms | p99 |"
            + " p99.9 | max | fire→handoff p50 ms | p99 | p99.9 | max | send→ack p50 ms | p99 |"
            + " p99.9 | max | load before → after |");
    System.out.println(
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    rows.forEach(System.out::println);
  }

  String run(Workload workload, int perSecond, int seconds, boolean report) throws Exception {
    String loadBefore = Machine.loadAverage();
    MicroClock clock = new MicroClock();
    int total = perSecond * seconds;
    Recorder fireToAck = new Recorder(total);
    Recorder fireToHandoff = new Recorder(total);
    Recorder sendToAck = new Recorder(total);
    LongAdder acked = new LongAdder();
    LongAdder failed = new LongAdder();
    TimingWheel<Void> wheel = new TimingWheel<>(clock.nowMs(), TimingWheel.DEFAULT_MAX_PENDING);
    ExecutorService dispatch = Executors.newFixedThreadPool(WheelLatenessBench.DISPATCH_THREADS);
    WheelTicker<Void> ticker =
        new WheelTicker<>(
            "bench-publish-ticker",
            wheel,
            clock,
            dispatch,
            WheelLatenessBench.BATCH_SIZE,
            WheelTicker.DEFAULT_MAX_PARK,
            batch -> {
              for (TimedEntry<Void> e : batch) {
                long fireMicros = e.fireMs() * 1000;
                long handedMicros = clock.nowMicros();
                fireToHandoff.record(handedMicros - fireMicros);
                send(e, clock, fireMicros, fireToAck, sendToAck, acked, failed);
              }
            });
    ticker.start();
    try {
      Feeder.feed(
          clock,
          workload,
          perSecond,
          seconds,
          2,
          (i, fireMs) -> {
            String id = TriggerId.scheduled("bench-" + i, fireMs).value();
            ticker.add(new TimedEntry<>(id, fireMs, null));
          });
      Feeder.await(20_000, () -> acked.sum() + failed.sum() >= total);
    } finally {
      ticker.close();
      dispatch.shutdown();
      dispatch.awaitTermination(5, TimeUnit.SECONDS);
    }
    long[] ack = fireToAck.sorted();
    errors.forEach((kind, n) -> System.out.println("  send errors " + n.sum() + " x " + kind));
    errors.clear();
    String row =
        String.format(
            "| %s | %,d | %d | %,d | %,d | %,d | %,d | %s | %s | %s | %s → %s |",
            workload,
            perSecond,
            seconds,
            total,
            acked.sum(),
            total - acked.sum(),
            failed.sum(),
            cells(ack),
            cells(fireToHandoff.sorted()),
            cells(sendToAck.sorted()),
            loadBefore,
            Machine.loadAverage());
    return report ? row : "(warm-up) " + row;
  }

  private static String cells(long[] sorted) {
    return Recorder.summaryMs(sorted).trim().replaceAll("\\s+", " | ");
  }

  private void send(
      TimedEntry<Void> e,
      MicroClock clock,
      long fireMicros,
      Recorder fireToAck,
      Recorder sendToAck,
      LongAdder acked,
      LongAdder failed) {
    TriggerMessage trigger =
        TriggerMessage.of(
            e.triggerId(),
            APP,
            HANDLER,
            e.fireMs(),
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            clock.nowMs());
    Message message = CODEC.toMessage(trigger);
    int slot = Math.floorMod(e.triggerId().hashCode(), QUEUES);
    if (inflight != null) {
      inflight.acquireUninterruptibly();
    }
    long sentMicros = clock.nowMicros();
    try {
      producer.send(
          message,
          SELECTOR,
          slot,
          new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
              long now = clock.nowMicros();
              release();
              if (result.getSendStatus() == SendStatus.SEND_OK) {
                fireToAck.record(now - fireMicros);
                sendToAck.record(now - sentMicros);
                acked.increment();
              } else {
                failed.increment();
              }
            }

            @Override
            public void onException(Throwable t) {
              release();
              failed.increment();
              error(t);
            }
          },
          3_000);
    } catch (Exception ex) {
      release();
      failed.increment();
      error(ex);
    }
  }

  private void release() {
    if (inflight != null) {
      inflight.release();
    }
  }

  private void error(Throwable t) {
    String m = String.valueOf(t.getMessage()).replaceAll("[0-9]+", "#");
    String kind = t.getClass().getSimpleName() + ": " + m.substring(0, Math.min(70, m.length()));
    errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  String topic() {
    return topic;
  }
}
