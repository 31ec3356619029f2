package dev.kairos.node.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RetryBackoff;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.lifecycle.LifecycleConfig;
import dev.kairos.node.KairosNodeApplication;
import dev.kairos.node.testing.InProcessExecutors;
import dev.kairos.node.testing.InProcessExecutors.Run;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.TopicNames;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The trigger lifecycle on the real path: a scheduler node (Redis Cluster, ZooKeeper, RocketMQ) and
 * an in-process executor running real handlers; retries, FIXED_DELAY re-arm, child jobs and
 * "trigger now" go through the leader's scan, the node's wheel and the broker like any fire.
 */
@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE, rocketMq = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LifecycleEndToEndIT {

  private static final String APP = "life-" + UUID.randomUUID().toString().substring(0, 6);
  private static final int QUEUES = 2;
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final EmbeddedInfrastructure infra;
  private ConfigurableApplicationContext node;
  private InProcessExecutors executors;
  private KairosRedis redis;
  private JobStore jobs;
  private AdhocTriggers adhoc;
  private RedisKeys keys;

  LifecycleEndToEndIT(EmbeddedInfrastructure infra) {
    this.infra = infra;
  }

  @BeforeAll
  void start() throws Exception {
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", "0");
    properties.put("kairos.node.name", "life-node");
    properties.put("kairos.zookeeper.root-path", "/kairos-life-" + UUID.randomUUID());
    properties.put("kairos.cluster.secret", "life-secret");
    properties.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    properties.put("kairos.fire.broker-cluster", "kairos");
    properties.put("kairos.lifecycle.poll-interval", "50ms");
    node =
        new SpringApplicationBuilder(KairosNodeApplication.class)
            .run(
                properties.entrySet().stream()
                    .map(e -> "--" + e.getKey() + "=" + e.getValue())
                    .toArray(String[]::new));
    jobs = node.getBean(JobStore.class);
    adhoc = node.getBean(AdhocTriggers.class);
    keys = jobs.keys();
    executors =
        InProcessExecutors.builder(infra, APP)
            .name("life-executor")
            .slots(QUEUES)
            .handler(
                "flaky",
                ctx -> {
                  if (ctx.attempt() < 3) {
                    throw new IllegalStateException("attempt " + ctx.attempt() + " fails");
                  }
                })
            .handler("sleepy", ctx -> Thread.sleep(1_000))
            .handler("ok", ctx -> {})
            .handler(
                "fail",
                ctx -> {
                  throw new IllegalStateException("always fails");
                })
            .handler("echo", ctx -> {})
            .start();
    redis = executors.redis();
  }

  @AfterAll
  void stop() {
    if (executors != null) {
      executors.close();
    }
    if (node != null) {
      node.close();
    }
  }

  private static String newId(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private List<Run> runsOf(String jobId) {
    return executors.runsOf(jobId);
  }

  private Map<String, String> record(String triggerId) {
    String jobId = new TriggerId(triggerId).jobId();
    return redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(jobId), triggerId));
  }

  private static void await(Duration timeout, String what, BooleanSupplier condition) {
    Poll.until(timeout, Duration.ofMillis(50), what, condition::getAsBoolean);
  }

  /**
   * Whether the lifecycle group has handled every event of the job's shard up to the trigger's
   * final-state event: nothing pending and that entry delivered.
   */
  private boolean lifecycleHandledEnd(String triggerId) {
    String jobId = new TriggerId(triggerId).jobId();
    String stream = RedisKeys.events(keys.shardOf(jobId));
    List<StreamMessage<String, String>> events =
        redis.sync().xrange(stream, Range.create("-", "+"));
    String endId = null;
    for (StreamMessage<String, String> m : events) {
      Map<String, String> b = m.getBody();
      if (triggerId.equals(b.get("triggerId"))
          && "TRIGGER_ENDED".equals(b.get("type"))
          && ("FAIL".equals(b.get("state")) || "SUCCESS".equals(b.get("state")))) {
        endId = m.getId();
      }
    }
    if (endId == null) {
      return false;
    }
    if (redis.sync().xpending(stream, LifecycleConfig.DEFAULT_GROUP).getCount() > 0) {
      return false;
    }
    for (Object g : redis.sync().xinfoGroups(stream)) {
      List<?> fields = (List<?>) g;
      Map<String, String> info = new LinkedHashMap<>();
      for (int i = 0; i + 1 < fields.size(); i += 2) {
        info.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
      }
      if (LifecycleConfig.DEFAULT_GROUP.equals(info.get("name"))) {
        return compare(info.get("last-delivered-id"), endId) >= 0;
      }
    }
    return false;
  }

  private static int compare(String a, String b) {
    String[] x = a.split("-");
    String[] y = b.split("-");
    int c = Long.compare(Long.parseLong(x[0]), Long.parseLong(y[0]));
    return c != 0 ? c : Long.compare(Long.parseLong(x[1]), Long.parseLong(y[1]));
  }

  @Test
  void aHandlerFailingTwiceIsRetriedWithExponentialBackoffAndSucceedsOnTheThirdAttempt() {
    long initial = 1_000;
    String job = newId("flaky");
    long at = System.currentTimeMillis() + 1_500;
    jobs.create(
        JobDefinition.builder(job)
            .app(APP)
            .handler("flaky")
            .oneShot(at)
            .retryCount(3)
            .retryBackoff(RetryBackoff.exponential(initial, 60_000, 0.0))
            .build());
    TriggerId root = TriggerId.scheduled(job, at);

    await(WAIT, "three attempts", () -> runsOf(job).size() >= 3);
    await(
        WAIT,
        "the third attempt recorded SUCCESS",
        () -> "SUCCESS".equals(record(root.retry(2).value()).get("state")));
    await(WAIT, "the lifecycle saw the SUCCESS", () -> lifecycleHandledEnd(root.retry(2).value()));

    List<Run> attempts = runsOf(job);
    assertThat(attempts)
        .extracting(Run::triggerId, Run::attempt)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(root.value(), 1),
            org.assertj.core.groups.Tuple.tuple(root.retry(1).value(), 2),
            org.assertj.core.groups.Tuple.tuple(root.retry(2).value(), 3));
    assertThat(record(root.value())).containsEntry("state", "FAIL");
    assertThat(record(root.retry(1).value()))
        .containsEntry("state", "FAIL")
        .containsEntry("kind", "RETRY")
        .containsEntry("attempt", "2")
        .containsEntry("parentTriggerId", root.value());
    assertThat(record(root.retry(2).value()))
        .containsEntry("state", "SUCCESS")
        .containsEntry("attempt", "3")
        .containsEntry("parentTriggerId", root.retry(1).value());
    assertThat(record(root.retry(3).value())).as("no fourth attempt").isEmpty();

    // Gap = end of attempt k to start of attempt k + 1: the back-off (1 s, then 2 s) plus
    // claim-to-start latency; never shorter (the retry is due at end + back-off on cluster time).
    for (int k = 1; k <= 2; k++) {
      long gap = attempts.get(k).startMs() - attempts.get(k - 1).endMs();
      long backoff = initial << (k - 1);
      System.out.printf("LIFECYCLE retry %d: gap %d ms for a back-off of %d ms%n", k, gap, backoff);
      assertThat(gap).as("gap before retry %d", k).isBetween(backoff - 50, backoff + 1_500);
    }
  }

  @Test
  void aFixedDelayJobStartsDelayAfterEachRunEndsAndNeverOverlaps() {
    String job = newId("delay");
    jobs.create(JobDefinition.builder(job).app(APP).handler("sleepy").fixedDelay(2_000).build());
    await(WAIT, "three runs", () -> runsOf(job).size() >= 3);
    jobs.disable(job);

    List<Run> r = runsOf(job).subList(0, 3);
    for (int k = 1; k < 3; k++) {
      long startGap = r.get(k).startMs() - r.get(k - 1).startMs();
      System.out.printf("LIFECYCLE fixed delay: start gap %d ms (1 s run + 2 s delay)%n", startGap);
      assertThat(r.get(k).startMs())
          .as("never overlapping")
          .isGreaterThanOrEqualTo(r.get(k - 1).endMs());
      assertThat(startGap).isBetween(3_000L - 50, 3_000L + 1_000);
    }
  }

  @Test
  void aChildRunsAfterItsParentsSuccessAndNotAfterAFailure() {
    String childOfOk = newId("child-ok");
    String childOfFail = newId("child-fail");
    jobs.create(JobDefinition.builder(childOfOk).app(APP).handler("ok").build());
    jobs.create(JobDefinition.builder(childOfFail).app(APP).handler("ok").build());
    String okParent = newId("parent-ok");
    String failParent = newId("parent-fail");
    jobs.create(
        JobDefinition.builder(okParent)
            .app(APP)
            .handler("ok")
            .childJobIds(List.of(childOfOk))
            .build());
    jobs.create(
        JobDefinition.builder(failParent)
            .app(APP)
            .handler("fail")
            .childJobIds(List.of(childOfFail))
            .build());

    TriggerId ok = adhoc.triggerNow(okParent, Optional.empty());
    TriggerId failed = adhoc.triggerNow(failParent, Optional.empty());

    await(WAIT, "the child of the successful parent ran", () -> runsOf(childOfOk).size() == 1);
    Run parentRun = runsOf(okParent).get(0);
    Run childRun = runsOf(childOfOk).get(0);
    assertThat(childRun.startMs()).isGreaterThanOrEqualTo(parentRun.endMs());
    assertThat(childRun.triggerId()).isEqualTo(ok.child(childOfOk).value());
    assertThat(record(childRun.triggerId()))
        .containsEntry("kind", "CHILD")
        .containsEntry("parentTriggerId", ok.value());

    await(
        WAIT, "the failing parent ended", () -> "FAIL".equals(record(failed.value()).get("state")));
    await(WAIT, "the lifecycle handled the failure", () -> lifecycleHandledEnd(failed.value()));
    assertThat(runsOf(childOfFail)).isEmpty();
    assertThat(record(failed.child(childOfFail).value())).isEmpty();
    assertThat(
            redis
                .sync()
                .zscore(
                    RedisKeys.adhoc(keys.shardOf(childOfFail)), failed.child(childOfFail).value()))
        .isNull();
  }

  @Test
  void triggerNowWithAParamsOverrideIsPublishedOnceWithThoseParams() throws Exception {
    String job = newId("echo");
    jobs.create(
        JobDefinition.builder(job).app(APP).handler("echo").params("{\"from\":\"job\"}").build());
    DefaultLitePullConsumer watcher = watcher(TopicNames.handlerTopic(APP, "echo"));
    try {
      TriggerId manual = adhoc.triggerNow(job, Optional.of("{\"from\":\"override\"}"));
      TriggerId plain = adhoc.triggerNow(job, Optional.empty());

      await(WAIT, "both ran", () -> runsOf(job).size() == 2);
      await(
          WAIT,
          "both SUCCESS (acknowledged: nothing left to re-send)",
          () ->
              "SUCCESS".equals(record(manual.value()).get("state"))
                  && "SUCCESS".equals(record(plain.value()).get("state")));
      assertThat(runsOf(job))
          .extracting(Run::triggerId, Run::params, Run::attempt)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(manual.value(), "{\"from\":\"override\"}", 1),
              org.assertj.core.groups.Tuple.tuple(plain.value(), "{\"from\":\"job\"}", 1));

      List<String> published = new ArrayList<>();
      MessageCodec codec = new MessageCodec();
      await(
          WAIT,
          "the broker copy of both triggers read",
          () -> {
            for (MessageExt m : watcher.poll()) {
              published.add(codec.decodeTrigger(m.getBody()).triggerId());
            }
            return published.contains(manual.value()) && published.contains(plain.value());
          });
      assertThat(published.stream().filter(manual.value()::equals)).hasSize(1);
      assertThat(record(manual.value())).containsEntry("kind", "MANUAL");
    } finally {
      watcher.shutdown();
    }
  }

  /** A second, independent reader of every queue of {@code topic} from its first offset. */
  private DefaultLitePullConsumer watcher(String topic) throws Exception {
    DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("watch-" + UUID.randomUUID());
    consumer.setNamesrvAddr(infra.rocketMq().nameServerAddress());
    consumer.setInstanceName("watch-" + UUID.randomUUID());
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setAutoCommit(false);
    consumer.setPollTimeoutMillis(100);
    consumer.start();
    List<MessageQueue> queues = new ArrayList<>(consumer.fetchMessageQueues(topic));
    // A fresh group reads from each queue's first offset (CONSUME_FROM_FIRST_OFFSET). No seek():
    // it cancels the pull task assign() just started, RocketMQ's client closes the broker channel
    // that task was using when it is interrupted, and the seek's own offset query on that channel
    // then fails ("send request to <broker> failed"), a race seen in CI.
    consumer.assign(queues);
    return consumer;
  }
}
