package dev.kairos.node.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.alarm.AlarmMetrics;
import dev.kairos.alarm.AlarmService;
import dev.kairos.alarm.AlarmWindow;
import dev.kairos.alarm.RedisAlarmWindow;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.FreePorts;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.KairosNodeApplication;
import dev.kairos.node.testing.InProcessExecutors;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue #8: a job failing every second, with no retry left, raises one alarm per de-duplication
 * window. The whole path is real: the node's scan, wheel and broker, an executor whose handler
 * throws, the lifecycle's reaction to each final FAIL, the node's AlarmService (its window in
 * Redis, shared by the cluster) and two webhook channels: {@code webhook-0} to a receiver this test
 * starts, {@code webhook-1} to a port nobody listens on, which must be retried, given up and logged
 * without holding up {@code webhook-0}.
 */
@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE, rocketMq = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FailingJobAlarmEndToEndIT {

  /** Short enough to see three windows in bounded time, long enough to hold several failures. */
  private static final Duration WINDOW = Duration.ofSeconds(6);

  private static final int RETRIES = 2;
  private static final int QUEUES = 2;
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String DEAD = "webhook-1";

  private final EmbeddedInfrastructure infra;
  private final String app = "alarm-e2e-" + UUID.randomUUID().toString().substring(0, 6);
  private final String jobId = "every-second-" + UUID.randomUUID().toString().substring(0, 8);
  private final String key = "TRIGGER_FAILED:" + jobId;
  private final List<ILoggingEvent> alarmLog = new CopyOnWriteArrayList<>();
  private final AppenderBase<ILoggingEvent> appender =
      new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
          alarmLog.add(event);
        }
      };
  private AlarmReceiver receiver;
  private ConfigurableApplicationContext node;
  private InProcessExecutors executors;
  private JobStore jobs;
  private AlarmMetrics metrics;

  FailingJobAlarmEndToEndIT(EmbeddedInfrastructure infra) {
    this.infra = infra;
  }

  @BeforeAll
  void start() throws Exception {
    receiver = new AlarmReceiver();
    // Reserved by FreePorts and never bound: connections to it are refused, as to a host that is
    // down.
    String deadUrl = "http://127.0.0.1:" + FreePorts.pick() + "/alarms";
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", "0");
    properties.put("kairos.node.name", "alarm-e2e-node");
    properties.put("kairos.zookeeper.root-path", "/kairos-alarm-e2e-" + UUID.randomUUID());
    properties.put("kairos.cluster.secret", "alarm-e2e-secret");
    properties.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    properties.put("kairos.fire.broker-cluster", "kairos");
    properties.put("kairos.alarm.window", WINDOW.toMillis() + "ms");
    properties.put("kairos.alarm.webhook.urls", receiver.url() + "," + deadUrl);
    properties.put("kairos.alarm.webhook.retries", Integer.toString(RETRIES));
    properties.put("kairos.alarm.webhook.initial-backoff", "100ms");
    properties.put("kairos.alarm.webhook.max-backoff", "400ms");
    node =
        new SpringApplicationBuilder(KairosNodeApplication.class)
            .run(
                properties.entrySet().stream()
                    .map(e -> "--" + e.getKey() + "=" + e.getValue())
                    .toArray(String[]::new));
    // After the context started: Boot resets Logback's configuration while it starts.
    appender.start();
    ((Logger) LoggerFactory.getLogger(AlarmService.class)).addAppender(appender);
    jobs = node.getBean(JobStore.class);
    metrics = node.getBean(AlarmMetrics.class);
    executors =
        InProcessExecutors.builder(infra, app)
            .name("alarm-e2e-executor")
            .slots(QUEUES)
            .handler(
                "fail",
                ctx -> {
                  throw new IllegalStateException("fails on purpose");
                })
            .start();
    jobs.create(
        JobDefinition.builder(jobId)
            .app(app)
            .handler("fail")
            .cron("* * * * * *")
            .retryCount(0)
            .build());
  }

  @AfterAll
  void stop() {
    ((Logger) LoggerFactory.getLogger(AlarmService.class)).detachAppender(appender);
    if (jobs != null) {
      jobs.disable(jobId);
    }
    if (executors != null) {
      executors.close();
    }
    if (node != null) {
      node.close();
    }
    if (receiver != null) {
      receiver.close();
    }
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(WAIT, Duration.ofMillis(50), what, condition::getAsBoolean);
  }

  /** The final states the lifecycle retries, and raises TRIGGER_FAILED for when none is left. */
  private static final Set<String> FAILED =
      Set.of("FAIL", "TIMEOUT", "LOST", "EXPIRED", "NO_EXECUTOR");

  /**
   * The job's failures in its shard's stream, in order. The lifecycle reads that stream in order
   * and, with retry count 0, raises one alarm per failure, so this is the order alarms were raised
   * in.
   */
  private List<String> failuresInRaiseOrder() {
    String stream = RedisKeys.events(jobs.keys().shardOf(jobId));
    return executors.redis().sync().xrange(stream, Range.create("-", "+")).stream()
        .map(StreamMessage::getBody)
        .filter(b -> "TRIGGER_ENDED".equals(b.get("type")))
        .filter(b -> FAILED.contains(b.get("state")))
        .map(b -> b.get("triggerId"))
        .filter(id -> id != null && id.startsWith(jobId + ":"))
        .toList();
  }

  @Test
  void aJobFailingEverySecondRaisesOneAlarmPerWindowAtTheWebhook() {
    await("three windows of alarms at webhook-0", () -> receiver.received(key).size() >= 3);
    List<AlarmReceiver.Received> delivered = receiver.received(key);
    List<String> failures = failuresInRaiseOrder();

    assertThat(delivered)
        .allSatisfy(
            r -> {
              JsonNode a = r.body();
              assertThat(a.path("kind").asText()).isEqualTo("TRIGGER_FAILED");
              assertThat(a.path("subject").asText()).isEqualTo(jobId);
              assertThat(a.at("/details/state").asText()).isIn(FAILED);
              assertThat(a.at("/details/attempt").asText()).isEqualTo("1");
              if (a.at("/details/state").asText().equals("FAIL")) {
                assertThat(a.at("/details/message").asText()).contains("fails on purpose");
              }
            });
    // Exact accounting, no timing margin: alarm i is raised by the failure that follows the
    // previous alarm's failure and the suppressed ones it carries.
    JsonNode first = delivered.get(0).body();
    assertThat(failures.indexOf(first.at("/details/triggerId").asText()))
        .as("the first failure of the job raised the first alarm")
        .isZero();
    assertThat(first.path("suppressed").asLong()).isZero();
    long suppressedTotal = 0;
    for (int i = 1; i < delivered.size(); i++) {
      JsonNode previous = delivered.get(i - 1).body();
      JsonNode next = delivered.get(i).body();
      int from = failures.indexOf(previous.at("/details/triggerId").asText());
      int to = failures.indexOf(next.at("/details/triggerId").asText());
      long suppressed = next.path("suppressed").asLong();
      assertThat(to)
          .as("alarm %d's failure comes after alarm %d's in the stream", i, i - 1)
          .isGreaterThan(from);
      long gap = delivered.get(i).arrivedMs() - delivered.get(i - 1).arrivedMs();
      System.out.printf(
          "ALARM window %d: 1 alarm, arrived %d ms after the previous one, carrying %d"
              + " suppressed failures%n",
          i, gap, suppressed);
      assertThat(to - from - 1)
          .as(
              "failures between alarms %d and %d, all suppressed and counted in alarm %d",
              i - 1, i, i)
          .isEqualTo(suppressed);
      // The window runs from one raise to the next; arrival lags a raise by the POST, and the
      // earlier one's lag (up to a second on a loaded machine) shortens the measured gap.
      assertThat(gap)
          .as("alarms %d and %d are a window apart", i - 1, i)
          .isGreaterThanOrEqualTo(WINDOW.toMillis() - 1_000);
      suppressedTotal += suppressed;
    }
    assertThat(suppressedTotal)
        .as("far more failures than deliveries: de-duplication held them back")
        .isGreaterThan(2L * delivered.size());
    // The node's window is the cluster's (in Redis), and Redis decided every alarm.
    assertThat(node.getBean(AlarmWindow.class)).isInstanceOf(RedisAlarmWindow.class);
    assertThat(executors.redis().sync().hget(RedisKeys.alarmWindow(key), "openedMs")).isNotNull();
    for (String reason : List.of("timeout", "error", "interrupted")) {
      assertThat(metrics.count("kairos.alarm.dedup.fallback", "reason", reason)).isZero();
    }
  }

  @Test
  void aWebhookThatIsDownIsRetriedThenGivenUpAndLogged() {
    String givenUp = "alarm delivery given up channel=" + DEAD + " key=" + key;
    await(
        "a delivery of " + key + " to " + DEAD + " given up",
        () -> alarmLog.stream().anyMatch(e -> e.getFormattedMessage().startsWith(givenUp)));

    ILoggingEvent line =
        alarmLog.stream()
            .filter(e -> e.getFormattedMessage().startsWith(givenUp))
            .findFirst()
            .orElseThrow();
    assertThat(line.getLevel()).isEqualTo(Level.WARN);
    assertThat(line.getFormattedMessage())
        .contains("attempts=" + (RETRIES + 1))
        .contains("retryable=true")
        .contains("ConnectException");
    double failed = metrics.count("kairos.alarm.failed", "channel", DEAD);
    double retries = metrics.count("kairos.alarm.retries", "channel", DEAD);
    System.out.printf(
        "ALARM %s: %.0f deliveries given up after %.0f retries%n", DEAD, failed, retries);
    assertThat(failed).isGreaterThanOrEqualTo(1);
    assertThat(retries)
        .as("every given-up delivery was retried first")
        .isGreaterThanOrEqualTo(RETRIES * failed);
    assertThat(metrics.count("kairos.alarm.delivered", "channel", DEAD)).isZero();
    // The dead channel holds up nothing: the same alarm reached the live receiver.
    assertThat(receiver.alarms(key)).isNotEmpty();
    assertThat(metrics.count("kairos.alarm.failed", "channel", "webhook-0")).isZero();
  }
}
