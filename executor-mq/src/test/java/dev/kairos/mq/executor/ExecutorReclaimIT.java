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
import dev.kairos.protocol.DispatchedTriggers;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

/**
 * An executor whose slot lease is taken over by another instance stops consuming that slot's queue,
 * claims the lowest free slot again and resumes there (it used to stop for good).
 */
@RealInfra(rocketMq = true, redis = RedisMode.STANDALONE)
class ExecutorReclaimIT {

  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
  private static final int QUEUES = 4;
  private static final Duration DEADLINE = Duration.ofSeconds(40);

  private final EmbeddedRocketMq mq;
  private final KairosRedis redis;
  private final String app = "reclaim-" + UUID.randomUUID().toString().substring(0, 8);
  private final Map<String, Integer> runs = new ConcurrentHashMap<>();

  ExecutorReclaimIT(EmbeddedRocketMq mq, EmbeddedRedis redis) {
    this.mq = mq;
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(5));
  }

  @Test
  void anExecutorThatLostItsLeaseClaimsAFreeSlotAndResumes() throws Exception {
    redis.sync().hsetnx(RedisKeys.META, "shards", Integer.toString(KEYS.shards()));
    String topic = TopicNames.handlerTopic(app, "count");
    try (TopicAdmin admin = new TopicAdmin(mq.nameServerAddress(), "kairos")) {
      admin.start();
      admin.ensureTopic(topic, QUEUES, Duration.ofSeconds(40));
      admin.ensureTopic(TopicNames.RESULTS, 1, Duration.ofSeconds(40));
    }
    SlotLeaseConfig lease =
        SlotLeaseConfig.of(app, "instance-" + app, "localhost", List.of("count"))
            .withSlotCount(QUEUES)
            .withTiming(Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofMillis(500));
    DefaultMQProducer producer = new DefaultMQProducer("reclaim_producer_" + app);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName("reclaim-producer-" + app);
    producer.start();
    try (KairosExecutor executor =
        new KairosExecutor(
            redis,
            ExecutorSettings.of(lease, mq.nameServerAddress()),
            Map.of("count", ctx -> runs.merge(ctx.triggerId(), 1, Integer::sum)))) {
      executor.start();
      assertThat(executor.slot()).isZero();
      send(producer, topic, 0, "before");
      await("the first trigger ran", () -> runs.containsKey(app + "-before:1"));

      // Another instance takes slot 0 (as after this one's lease expired during a pause).
      long far = System.currentTimeMillis() + 3_600_000;
      redis
          .sync()
          .hset(
              RedisKeys.slots(app),
              "0",
              "{\"instanceId\":\"thief\",\"host\":\"elsewhere\",\"handlers\":[\"count\"],"
                  + "\"slot\":0,\"lastRenewalMs\":"
                  + far
                  + ",\"expiresMs\":"
                  + far
                  + ",\"busy\":false}");

      await("a slot claimed again", () -> executor.reclaims() == 1 && executor.isConsuming());
      assertThat(executor.slot()).as("the lowest free slot").isEqualTo(1);
      ExecutorHealth health = executor.health();
      assertThat(health.consuming()).isTrue();
      assertThat(health.leaseValid()).isTrue();
      assertThat(health.slot()).isEqualTo(1);
      assertThat(executor.stats().leaseLost()).isEqualTo(1);

      send(producer, topic, 0, "stolen"); // slot 0's queue belongs to the thief now
      send(producer, topic, 1, "after");
      await("the trigger on the new slot ran", () -> runs.containsKey(app + "-after:3"));
      assertThat(runs).doesNotContainKey(app + "-stolen:2");
      assertThat(runs.values()).allSatisfy(n -> assertThat(n).isEqualTo(1));
    } finally {
      producer.shutdown();
      redis.close();
    }
  }

  private int sent;

  private void send(DefaultMQProducer producer, String topic, int slot, String name)
      throws Exception {
    String job = app + "-" + name;
    long fire = ++sent;
    long now = System.currentTimeMillis();
    TriggerMessage trigger =
        TriggerMessage.of(
            job + ":" + fire,
            app,
            "count",
            now,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            now);
    DispatchedTriggers.write(redis, KEYS, trigger, "DISPATCHED");
    Message message = new Message(topic, new MessageCodec().encode(trigger));
    message.setKeys(trigger.messageKey());
    producer.send(message, new SlotQueueSelector(), slot);
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(DEADLINE, Duration.ofMillis(50), what, condition::getAsBoolean);
  }
}
