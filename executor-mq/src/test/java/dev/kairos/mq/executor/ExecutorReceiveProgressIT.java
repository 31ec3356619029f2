package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.route.TopicAdmin;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.protocol.DispatchedTriggers;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.slot.SlotInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An executor publishes in its slot lease how far it has received each handler's queue, so the
 * scheduler's lost-trigger monitor can tell a backlog (leave it) from a lost message (send again).
 * Born times are this JVM's clock (the test's producer) and so is the executor's poll time, so the
 * test brackets born times by the clock read before and after each send.
 */
@RealInfra(rocketMq = true, redis = RedisMode.STANDALONE)
class ExecutorReceiveProgressIT {

  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
  private static final int QUEUES = 4;
  private static final String HANDLER = "block";
  private static final Duration RENEW = Duration.ofMillis(200);
  private static final Duration DEADLINE = Duration.ofSeconds(40);

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final SlotRegistry registry;
  private final MessageCodec codec = new MessageCodec();
  private final String app = "progress-" + UUID.randomUUID().toString().substring(0, 8);
  private final String topic = TopicNames.handlerTopic(app, HANDLER);
  private final CountDownLatch release = new CountDownLatch(1);
  private DefaultMQProducer producer;
  private KairosExecutor executor;
  private int fires;

  ExecutorReceiveProgressIT(EmbeddedRocketMq mq, EmbeddedRedis redis) {
    this.mq = mq;
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(5));
    this.registry = new SlotRegistry(this.redis);
  }

  @BeforeEach
  void infrastructure() throws Exception {
    redis.sync().hsetnx(RedisKeys.META, "shards", Integer.toString(KEYS.shards()));
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
      admin.start();
      admin.ensureTopic(topic, QUEUES, Duration.ofSeconds(40));
      admin.ensureTopic(TopicNames.RESULTS, 1, Duration.ofSeconds(40));
    }
    producer = new DefaultMQProducer("progress_producer_" + app);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName("progress-producer-" + app);
    producer.start();
  }

  @AfterEach
  void close() {
    release.countDown();
    if (executor != null) {
      executor.close();
    }
    producer.shutdown();
    redis.close();
  }

  @Test
  void theLeaseShowsABacklogAsNotYetReceivedAndMovesPastItOnceDrained() throws Exception {
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, "instance-" + app, "localhost", List.of(HANDLER))
            .withSlotCount(QUEUES)
            .withTiming(Duration.ofSeconds(3), RENEW, Duration.ofMillis(500));
    // One worker, and polling pauses while one received delivery waits: so a blocked handler
    // leaves what is sent next in the broker's queue, as a slow executor under load does.
    ExecutorSettings settings =
        ExecutorSettings.builder(lease, mq.nameServerAddress())
            .workerThreads(1)
            .maxInFlight(1)
            .shutdownGrace(Duration.ofSeconds(1))
            .build();
    executor = new KairosExecutor(redis, settings, Map.of(HANDLER, ctx -> release.await()));
    executor.start();
    assertThat(executor.slot()).isZero();
    long startedMs = System.currentTimeMillis();

    // Idle: every empty poll proves the queue drained, so progress follows the clock.
    await("progress of the idle executor", () -> progress() >= startedMs);

    String job = app + "-job"; // one job, SERIAL: the second delivery waits behind the first
    send(job);
    await("the first trigger to start", () -> executor.stats().started() == 1);
    long beforeSecond = System.currentTimeMillis();
    send(job);
    await("the second delivery to be received", () -> executor.unstartedDeliveries() == 1);

    long beforeBacklog = System.currentTimeMillis(); // <= the born time of every backlog message
    for (int i = 0; i < 5; i++) {
      send(job);
    }
    long afterBacklog = System.currentTimeMillis(); // >= the born time of every backlog message
    // Renewals after the backlog was sent, with time for the consumer to pull it into its cache
    // (pulled is not received: only what the poll thread took counts).
    await("five renewals after the backlog", () -> lease().lastRenewalMs() >= afterBacklog + 1_000);

    long backlogged = progress();
    assertThat(backlogged)
        .as("progress while the backlog waits")
        .isGreaterThanOrEqualTo(beforeSecond) // the second message was received
        .isLessThan(beforeBacklog); // the backlog was not
    assertThat(executor.unstartedDeliveries()).isEqualTo(1);
    assertThat(executor.stats().started()).isEqualTo(1);

    release.countDown();
    await("all seven triggers to run", () -> executor.stats().succeeded() == 7);
    await("progress past the last message's born time", () -> progress() >= afterBacklog);
    assertThat(executor.stats().duplicates()).isZero();
  }

  private SlotInfo lease() {
    List<SlotInfo> live = registry.liveSlots(app);
    assertThat(live).hasSize(1);
    return live.get(0);
  }

  /** The handler's received-through time as the lease in Redis shows it. */
  private long progress() {
    return lease()
        .receivedThrough(HANDLER)
        .orElseThrow(() -> new AssertionError("the lease carries no progress for " + HANDLER));
  }

  /** Writes a DISPATCHED record as a node does, then sends the trigger to slot 0's queue. */
  private void send(String job) throws Exception {
    long fire = System.currentTimeMillis() + ++fires;
    TriggerMessage trigger =
        TriggerMessage.of(
            job + ":" + fire,
            app,
            HANDLER,
            fire,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire);
    DispatchedTriggers.write(redis, KEYS, trigger, "DISPATCHED");
    Message message = new Message(topic, codec.encode(trigger));
    message.setKeys(trigger.messageKey());
    producer.send(message, new SlotQueueSelector(), 0);
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(DEADLINE, Duration.ofMillis(20), what, condition::getAsBoolean);
  }
}
