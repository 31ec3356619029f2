package dev.kairos.mq.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.executor.JobContext;
import dev.kairos.mq.testing.NodeStandIn;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TriggerMessage;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** The starter in a real Spring Boot context against real Redis and RocketMQ. */
@RealInfra(rocketMq = true, redis = RedisMode.STANDALONE)
class KairosJobStarterIT {

  private final EmbeddedRocketMq mq;
  private final EmbeddedRedis embeddedRedis;
  private final KairosRedis redis;
  private final String app = "starter-" + UUID.randomUUID().toString().substring(0, 8);
  private NodeStandIn node;
  private ConfigurableApplicationContext context;

  KairosJobStarterIT(EmbeddedRocketMq mq, EmbeddedRedis redis) {
    this.mq = mq;
    this.embeddedRedis = redis;
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(5));
  }

  /** A user's bean with handlers of each supported shape. */
  static class Jobs {
    final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
    final List<JobContext> contexts = new CopyOnWriteArrayList<>();
    final List<String> lifecycle = Collections.synchronizedList(new ArrayList<>());

    @KairosJob(value = "greet", init = "open", destroy = "shut")
    public String greet(JobContext context) {
      starts.computeIfAbsent(context.triggerId(), k -> new AtomicInteger()).incrementAndGet();
      contexts.add(context);
      context.log().info("greeting {}", context.params());
      return "hello " + context.params();
    }

    @KairosJob("broken")
    public void broken() {
      throw new IllegalStateException("the printer is on fire");
    }

    @KairosJob("slow")
    public void slow(JobContext context) throws InterruptedException {
      starts.computeIfAbsent(context.triggerId(), k -> new AtomicInteger()).incrementAndGet();
      Thread.sleep(1_500);
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
  static class UserApplication {
    @Bean
    Jobs jobs() {
      return new Jobs();
    }

    @Bean
    MeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  @BeforeEach
  void start() throws Exception {
    node = new NodeStandIn(mq, redis, app);
    context =
        new SpringApplicationBuilder(UserApplication.class)
            .properties(
                "kairos.executor.app=" + app,
                "kairos.executor.redis.uris=" + embeddedRedis.uri(),
                "kairos.executor.name-server=" + mq.nameServerAddress(),
                "kairos.executor.broker-cluster=kairos",
                "kairos.executor.slot-count=2",
                "kairos.executor.shutdown-grace=5s",
                "kairos.executor.result-reports=ALL")
            .run();
    // The starter created the results topic, so the stand-in can read it now.
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

  private KairosExecutorLifecycle executor() {
    return context.getBean(KairosExecutorLifecycle.class);
  }

  private Jobs jobs() {
    return context.getBean(Jobs.class);
  }

  /** Records the trigger CLAIMED the way a scheduler node does before it publishes. */
  private TriggerMessage trigger(String handler, String params) {
    return node.record(node.trigger(handler, handler, params), "CLAIMED");
  }

  private void send(TriggerMessage trigger) throws Exception {
    node.send(trigger, executor().executor().slot());
  }

  private double counter(String handler, String outcome) {
    return context
        .getBean(MeterRegistry.class)
        .get("kairos.executor.triggers")
        .tags("app", app, "handler", handler, "outcome", outcome)
        .functionCounter()
        .count();
  }

  @Test
  void anAnnotatedMethodRunsOnceAndAResentCopyIsReportedDuplicate() throws Exception {
    assertThat(executor().isRunning()).isTrue();
    assertThat(jobs().lifecycle).containsExactly("init");
    TriggerMessage trigger = trigger("greet", "world");

    send(trigger);
    ResultMessage success = node.awaitResult(trigger, ResultStatus.SUCCESS);
    assertThat(success.message()).startsWith("hello world").contains("INFO greeting world");
    JobContext seen = jobs().contexts.get(0);
    assertThat(seen.jobId()).isEqualTo(trigger.jobId());
    assertThat(seen.scheduledFireMs()).isEqualTo(trigger.scheduledFireMs());
    assertThat(seen.attempt()).isEqualTo(1);
    assertThat(seen.shardTotal()).isEqualTo(1);

    send(trigger);
    node.awaitResult(trigger, ResultStatus.DUPLICATE);
    assertThat(jobs().starts.get(trigger.triggerId())).hasValue(1);
    assertThat(node.recordedState(trigger)).isEqualTo("SUCCESS");
    assertThat(counter("greet", "started")).isEqualTo(1);
    assertThat(counter("greet", "succeeded")).isEqualTo(1);
    assertThat(counter("greet", "duplicate")).isEqualTo(1);
    assertThat(executor().executor().stats("greet").duplicates()).isEqualTo(1);
  }

  @Test
  void aThrowingMethodIsReportedFailWithItsException() throws Exception {
    TriggerMessage trigger = trigger("broken", "");
    send(trigger);
    ResultMessage fail = node.awaitResult(trigger, ResultStatus.FAIL);
    assertThat(fail.message()).contains("IllegalStateException: the printer is on fire");
    assertThat(counter("broken", "failed")).isEqualTo(1);
  }

  @Test
  void closingTheContextLetsTheRunningHandlerFinishReportsItAndReleasesTheSlot() throws Exception {
    TriggerMessage trigger = trigger("slow", "");
    int slot = executor().executor().slot();
    send(trigger);
    Poll.until(
        NodeStandIn.DEADLINE,
        "the slow run to start",
        () -> jobs().starts.containsKey(trigger.triggerId()));
    Jobs jobs = jobs();

    context.close();

    assertThat(jobs.lifecycle).containsExactly("init", "destroy");
    ResultMessage success = node.awaitResult(trigger, ResultStatus.SUCCESS);
    assertThat(success.endedMs() - success.startedMs()).isGreaterThanOrEqualTo(1_000);
    assertThat(redis.sync().hexists(RedisKeys.slots(app), Integer.toString(slot))).isFalse();
  }
}
