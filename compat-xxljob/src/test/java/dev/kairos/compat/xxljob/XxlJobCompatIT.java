package dev.kairos.compat.xxljob;

import static org.assertj.core.api.Assertions.assertThat;

import com.xxl.job.core.context.XxlJobHelper;
import com.xxl.job.core.handler.annotation.XxlJob;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.spring.KairosExecutorLifecycle;
import dev.kairos.mq.testing.NodeStandIn;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TriggerMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
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

  private final EmbeddedRocketMq mq;
  private final EmbeddedRedis embeddedRedis;
  private final KairosRedis redis;
  private final String app = "xxl-" + UUID.randomUUID().toString().substring(0, 8);
  @TempDir Path logDir;
  private NodeStandIn node;
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
    node = new NodeStandIn(mq, redis, app);
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
    // The starter created the result topic, so the stand-in can read it now.
    node.consumeResults();
  }

  @AfterEach
  void close() {
    if (context != null) {
      context.close();
    }
    node.close();
    redis.close();
  }

  /** Records the trigger CLAIMED and sends it to the executor's slot, as a node does. */
  private TriggerMessage send(String handler, String params, int shardIndex, int shardTotal)
      throws Exception {
    TriggerMessage trigger =
        node.record(node.trigger(handler, handler, params, 0, shardIndex, shardTotal), "CLAIMED");
    node.send(trigger, context.getBean(KairosExecutorLifecycle.class).executor().slot());
    return trigger;
  }

  @Test
  void anXxlJobMethodRunsAsAKairosHandlerWithParamsShardLogAndMessage() throws Exception {
    LegacyJobs jobs = context.getBean(LegacyJobs.class);
    assertThat(context.getBean(KairosExecutorLifecycle.class).handlers())
        .containsKeys("shardedReport", "refusedPayment");
    assertThat(jobs.lifecycle).containsExactly("init");
    TriggerMessage trigger = send("shardedReport", "2026-11", 1, 3);
    ResultMessage result = node.awaitResult(trigger);

    assertThat(result.status()).as(result.toString()).isEqualTo(ResultStatus.SUCCESS);
    assertThat(result.message())
        .startsWith("report shard 1 done")
        .contains("shard 1 of 3 read '2026-11'");
    assertThat(jobs.seen).containsExactly("2026-11 1/3");
    node.awaitRecordedState(trigger, "SUCCESS");
    try (var files = Files.list(logDir)) {
      assertThat(files).as("per-run xxl-job log files are removed").isEmpty();
    }
  }

  @Test
  void handleFailIsAFailedTriggerWithTheHandlersMessage() throws Exception {
    TriggerMessage trigger = send("refusedPayment", "", 0, 1);
    ResultMessage result = node.awaitResult(trigger);

    assertThat(result.status()).as(result.toString()).isEqualTo(ResultStatus.FAIL);
    assertThat(result.message())
        .startsWith("XxlJobHelper.handleFail: the bank said no")
        .contains("calling the bank");
    node.awaitRecordedState(trigger, "FAIL");
  }

  @Test
  void closingTheApplicationCallsTheXxlJobDestroyMethod() {
    LegacyJobs jobs = context.getBean(LegacyJobs.class);
    context.close();
    assertThat(jobs.lifecycle).containsExactly("init", "destroy");
  }
}
