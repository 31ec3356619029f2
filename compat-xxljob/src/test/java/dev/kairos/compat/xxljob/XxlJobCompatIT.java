package dev.kairos.compat.xxljob;

import static org.assertj.core.api.Assertions.assertThat;

import com.xxl.job.core.context.XxlJobHelper;
import com.xxl.job.core.handler.annotation.XxlJob;
import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * An executor service written against xxl-job-core's API, unchanged, runs on a real Kairos executor
 * (Spring Boot starter) against real Redis and RocketMQ: its {@code @XxlJob} methods are the
 * handlers, and what they tell {@code XxlJobHelper} is the trigger's result.
 */
@RealInfra(rocketMq = true, redis = RedisMode.STANDALONE)
class XxlJobCompatIT {

  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private final EmbeddedRocketMq mq;
  private final EmbeddedRedis embeddedRedis;
  private final KairosRedis redis;
  private final MessageCodec codec = new MessageCodec();
  private final String app = "xxl-" + UUID.randomUUID().toString().substring(0, 8);
  private final List<ResultMessage> results = new CopyOnWriteArrayList<>();
  @TempDir Path logDir;
  private DefaultMQProducer producer;
  private DefaultLitePullConsumer resultConsumer;
  private ConfigurableApplicationContext context;

  XxlJobCompatIT(EmbeddedRocketMq mq, EmbeddedRedis redis) {
    this.mq = mq;
    this.embeddedRedis = redis;
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(5));
  }

  /** A bean as an xxl-job executor service has it: nothing Kairos in it. */
  static class LegacyJobs {
    final List<String> seen = new CopyOnWriteArrayList<>();
    final List<String> lifecycle = Collections.synchronizedList(new ArrayList<>());

    @XxlJob(value = "shardedReport", init = "open", destroy = "shut")
    public void shardedReport() {
      String param = XxlJobHelper.getJobParam();
      int index = XxlJobHelper.getShardIndex();
      int total = XxlJobHelper.getShardTotal();
      seen.add(param + " " + index + "/" + total);
      XxlJobHelper.log("shard {} of {} read '{}'", index, total, param);
      XxlJobHelper.handleSuccess("report shard " + index + " done");
    }

    @XxlJob("refusedPayment")
    public void refusedPayment() {
      XxlJobHelper.log("calling the bank");
      XxlJobHelper.handleFail("the bank said no");
    }

    void open() {
      lifecycle.add("init");
    }

    void shut() {
      lifecycle.add("destroy");
    }
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class LegacyApplication {
    @Bean
    LegacyJobs legacyJobs() {
      return new LegacyJobs();
    }
  }

  @BeforeEach
  void start() throws Exception {
    redis.sync().hsetnx(RedisKeys.META, "shards", Integer.toString(KEYS.shards()));
    producer = new DefaultMQProducer("test_producer_" + app);
    producer.setNamesrvAddr(mq.nameServerAddress());
    producer.setInstanceName("test-producer-" + app);
    producer.start();
    context =
        new SpringApplicationBuilder(LegacyApplication.class)
            .properties(
                "kairos.executor.app=" + app,
                "kairos.executor.redis.uris=" + embeddedRedis.uri(),
                "kairos.executor.name-server=" + mq.nameServerAddress(),
                "kairos.executor.broker-cluster=kairos",
                "kairos.executor.slot-count=2",
                "kairos.executor.shutdown-grace=5s",
                "kairos.executor.result-reports=ALL",
                "kairos.compat.xxljob.log-dir=" + logDir)
            .run();
    resultConsumer = new DefaultLitePullConsumer("test_results_" + app);
    resultConsumer.setNamesrvAddr(mq.nameServerAddress());
    resultConsumer.setInstanceName("test-results-" + app);
    resultConsumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    resultConsumer.start();
    resultConsumer.assign(resultConsumer.fetchMessageQueues(TopicNames.RESULTS));
  }

  @AfterEach
  void close() {
    if (context != null) {
      context.close();
    }
    resultConsumer.shutdown();
    producer.shutdown();
    redis.close();
  }

  /** Records the trigger CLAIMED the way a scheduler node does before it publishes. */
  private TriggerMessage trigger(String handler, String params, int shardIndex, int shardTotal) {
    String job = app + "-" + handler;
    long fire = System.currentTimeMillis();
    String id = job + ":" + fire + (shardTotal > 1 ? "#" + shardIndex + "/" + shardTotal : "");
    TriggerMessage trigger =
        TriggerMessage.of(
            id,
            app,
            handler,
            fire,
            1,
            params,
            shardIndex,
            shardTotal,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire);
    DispatchedTriggers.write(redis, KEYS, trigger, "CLAIMED");
    return trigger;
  }

  private void send(TriggerMessage trigger) throws Exception {
    int slot = context.getBean(KairosExecutorLifecycle.class).executor().slot();
    producer.send(codec.toMessage(trigger), new SlotQueueSelector(), slot);
  }

  private ResultMessage awaitResult(TriggerMessage trigger) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      for (ResultMessage r : results) {
        if (r.triggerId().equals(trigger.triggerId())) {
          return r;
        }
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "timed out waiting for the result of " + trigger.triggerId() + "; results: " + results);
      }
      for (MessageExt m : resultConsumer.poll(100)) {
        ResultMessage r = codec.decodeResult(m.getBody());
        if (r.jobId().startsWith(app)) {
          results.add(r);
        }
      }
    }
  }

  private String recordedState(TriggerMessage trigger) {
    return redis
        .sync()
        .hget(RedisKeys.trigger(KEYS.shardOf(trigger.jobId()), trigger.triggerId()), "state");
  }

  @Test
  void anXxlJobMethodRunsAsAKairosHandlerWithParamsShardLogAndMessage() throws Exception {
    LegacyJobs jobs = context.getBean(LegacyJobs.class);
    assertThat(context.getBean(KairosExecutorLifecycle.class).handlers())
        .containsKeys("shardedReport", "refusedPayment");
    assertThat(jobs.lifecycle).containsExactly("init");
    TriggerMessage trigger = trigger("shardedReport", "2026-11", 1, 3);

    send(trigger);
    ResultMessage result = awaitResult(trigger);

    assertThat(result.status()).as(result.toString()).isEqualTo(ResultStatus.SUCCESS);
    assertThat(result.message())
        .startsWith("report shard 1 done")
        .contains("shard 1 of 3 read '2026-11'");
    assertThat(jobs.seen).containsExactly("2026-11 1/3");
    Poll.until(DEADLINE, "the SUCCESS record", () -> "SUCCESS".equals(recordedState(trigger)));
    try (var files = Files.list(logDir)) {
      assertThat(files).as("per-run xxl-job log files are removed").isEmpty();
    }
  }

  @Test
  void handleFailIsAFailedTriggerWithTheHandlersMessage() throws Exception {
    TriggerMessage trigger = trigger("refusedPayment", "", 0, 1);

    send(trigger);
    ResultMessage result = awaitResult(trigger);

    assertThat(result.status()).as(result.toString()).isEqualTo(ResultStatus.FAIL);
    assertThat(result.message())
        .startsWith("XxlJobHelper.handleFail: the bank said no")
        .contains("calling the bank");
    Poll.until(DEADLINE, "the FAIL record", () -> "FAIL".equals(recordedState(trigger)));
  }

  @Test
  void closingTheApplicationCallsTheXxlJobDestroyMethod() {
    LegacyJobs jobs = context.getBean(LegacyJobs.class);
    context.close();
    assertThat(jobs.lifecycle).containsExactly("init", "destroy");
  }
}
