package dev.kairos.demo.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.spring.KairosExecutorLifecycle;
import dev.kairos.protocol.DispatchedTriggers;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** The demo executor started the way the demo launcher starts it, fed triggers by hand. */
@RealInfra(redis = RedisMode.STANDALONE, rocketMq = true)
class DemoExecutorIT {

  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private final MessageCodec codec = new MessageCodec();
  private final List<ResultMessage> results = new CopyOnWriteArrayList<>();

  @Test
  void demoHandlersRunOnceEachAndTheCounterSeesNoDuplicateStart(EmbeddedInfrastructure infra)
      throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("kairos.fire.broker-cluster", "kairos");
    // This test reads every run's result from the result topic, not only the exceptions.
    properties.put("kairos.executor.result-reports", "ALL");
    try (KairosRedis redis =
        KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(5))) {
      // The scheduler initialises Kairos in Redis; the executor refuses to start before that.
      redis.sync().hsetnx(RedisKeys.META, "shards", Integer.toString(KEYS.shards()));
      try (ConfigurableApplicationContext demo = DemoExecutorApplication.start(properties)) {
        run(redis, demo, infra.rocketMq().nameServerAddress());
      }
    }
  }

  private void run(KairosRedis redis, ConfigurableApplicationContext demo, String ns)
      throws Exception {
    int slot = demo.getBean(KairosExecutorLifecycle.class).executor().slot();
    DefaultMQProducer producer = new DefaultMQProducer("demo_test_producer");
    producer.setNamesrvAddr(ns);
    producer.start();
    DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("demo_test_results");
    consumer.setNamesrvAddr(ns);
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.start();
    try {
      consumer.assign(consumer.fetchMessageQueues(TopicNames.RESULTS));
      TriggerMessage fast = trigger(redis, "demoFast", "fast-job", false);
      TriggerMessage flaky = trigger(redis, "demoFlaky", "flaky-job", true);
      for (TriggerMessage t : List.of(fast, fast, flaky)) {
        producer.send(codec.toMessage(t), new SlotQueueSelector(), slot);
      }
      await(consumer, fast, ResultStatus.SUCCESS);
      await(consumer, fast, ResultStatus.DUPLICATE);
      ResultMessage failed = await(consumer, flaky, ResultStatus.FAIL);
      assertThat(failed.message()).contains("demoFlaky failed on purpose");

      StartCounter starts = DemoExecutorApplication.starts(demo);
      assertThat(starts.startsOf(fast.triggerId())).isEqualTo(1);
      assertThat(starts.startsOf(flaky.triggerId())).isEqualTo(1);
      assertThat(starts.executed()).isEqualTo(2);
      assertThat(starts.duplicateStarts()).isZero();
    } finally {
      consumer.shutdown();
      producer.shutdown();
    }
  }

  /** A trigger record CLAIMED as a scheduler node writes it; {@code failing} picks a flaky id. */
  private static TriggerMessage trigger(
      KairosRedis redis, String handler, String job, boolean failing) {
    long fire = System.currentTimeMillis();
    while (DemoJobs.failsOn(job + ":" + fire) != failing) {
      fire++;
    }
    TriggerMessage t =
        TriggerMessage.of(
            job + ":" + fire,
            "demo",
            handler,
            fire,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire);
    DispatchedTriggers.write(redis, KEYS, t, "CLAIMED");
    return t;
  }

  private ResultMessage await(
      DefaultLitePullConsumer consumer, TriggerMessage trigger, ResultStatus status) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      for (ResultMessage r : results) {
        if (r.triggerId().equals(trigger.triggerId()) && r.status() == status) {
          return r;
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "timed out waiting for " + status + " of " + trigger.triggerId() + "; got " + results);
      }
      for (MessageExt m : consumer.poll(100)) {
        results.add(codec.decodeResult(m.getBody()));
      }
    }
  }
}
