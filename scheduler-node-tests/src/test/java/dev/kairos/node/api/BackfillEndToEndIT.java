package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.core.model.TriggerId;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.executor.JobHandler;
import dev.kairos.node.testing.InProcessExecutors;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Backfills on the real path: a scheduler node (Redis Cluster, ZooKeeper, RocketMQ) drives a
 * backfill as its leader, each fire an ad-hoc trigger claimed, dispatched and run by real
 * executors; three executor instances (one slot each) could run three fires of the job at once, so
 * the cap of two is the backfill's doing.
 */
@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE, rocketMq = true)
class BackfillEndToEndIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 6);
  private static final String APP = "bf-" + RUN;
  private static final int SLOTS = 3;
  private static final Duration DEADLINE = Duration.ofSeconds(45);

  /** Starts per trigger id, and the fire time each run saw, per job. */
  private static final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();

  private static final Map<String, Long> fireTimes = new ConcurrentHashMap<>();
  private static final AtomicInteger running = new AtomicInteger();
  private static final AtomicInteger maxRunning = new AtomicInteger();
  private static final CountDownLatch release = new CountDownLatch(1);

  private static ApiTestNode node;
  private static InProcessExecutors executors;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "bf-node-" + RUN);
    overrides.put("kairos.zookeeper.root-path", "/kairos-bf-" + RUN);
    overrides.put("kairos.cluster.secret", "bf-secret");
    overrides.put("kairos.rocketmq.default-queue-count", Integer.toString(SLOTS));
    overrides.put("kairos.fire.broker-cluster", "kairos");
    overrides.put("kairos.lifecycle.poll-interval", "50ms");
    overrides.put("kairos.backfill.tick-interval", "100ms");
    // No PostgreSQL here: the console's job page also asks the history (its stats and trigger
    // page), which would wait Hikari's 3 s for a connection per call.
    overrides.put("spring.datasource.hikari.connection-timeout", "250");
    node = ApiTestNode.start(infra, overrides);
    executors =
        InProcessExecutors.builder(infra, APP)
            .name("bf-exec")
            .slots(SLOTS)
            .executors(SLOTS)
            .handler("work", recorded(ctx -> Thread.sleep(400)))
            .handler("hold", recorded(ctx -> release.await(30, TimeUnit.SECONDS)))
            .start();
  }

  @AfterAll
  static void stop() {
    release.countDown();
    if (executors != null) {
      executors.close();
    }
    if (node != null) {
      node.close();
    }
  }

  private static JobHandler recorded(JobHandler body) {
    return ctx -> {
      if (!new TriggerId(ctx.triggerId()).isBackfill()) {
        return; // a real fire of the hourly schedule, if the test crosses an hour
      }
      starts.computeIfAbsent(ctx.triggerId(), k -> new AtomicInteger()).incrementAndGet();
      fireTimes.put(ctx.triggerId(), ctx.scheduledFireMs());
      int now = running.incrementAndGet();
      maxRunning.accumulateAndGet(now, Math::max);
      try {
        body.execute(ctx);
      } finally {
        running.decrementAndGet();
      }
    };
  }

  private static String hourlyJob(String handler) {
    String id = handler + "-" + UUID.randomUUID().toString().substring(0, 6);
    ApiTestNode.Response created =
        node.post(
            "/api/v1/jobs",
            ApiTestNode.json(
                Map.of(
                    "id", id,
                    "app", APP,
                    "handler", handler,
                    "scheduleType", "CRON",
                    "schedule", "0 0 * * * ?",
                    "zone", "UTC",
                    "routing", "ROUND")),
            ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return id;
  }

  private static String body(Instant from, Instant to, Integer maxConcurrent) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("from", from.toString());
    body.put("to", to.toString());
    if (maxConcurrent != null) {
      body.put("maxConcurrent", maxConcurrent);
    }
    return ApiTestNode.json(body);
  }

  private static JsonNode backfill(String id) {
    ApiTestNode.Response r = node.get("/api/v1/backfills/" + id, VIEWER);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.json();
  }

  private static int startsOf(String jobId) {
    return starts.entrySet().stream()
        .filter(e -> new TriggerId(e.getKey()).jobId().equals(jobId))
        .mapToInt(e -> e.getValue().get())
        .sum();
  }

  @Test
  void aBackfillRunsEachPastFireOnceAtMostTwoAtATimeWithItsHistoricalFireTime() {
    String job = hourlyJob("work");
    Instant to = Instant.now().truncatedTo(ChronoUnit.HOURS);
    Instant from = to.minus(5, ChronoUnit.HOURS);
    String request = body(from, to, 2);

    ApiTestNode.Response created = node.post("/api/v1/jobs/" + job + "/backfills", request, ADMIN);

    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    String id = created.json().path("id").asText();
    assertThat(created.headers().firstValue("Location")).hasValue("/api/v1/backfills/" + id);
    assertThat(created.json().path("total").asInt()).isEqualTo(6);
    await("the backfill succeeds")
        .atMost(DEADLINE)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> assertThat(backfill(id).path("state").asText()).isEqualTo("SUCCEEDED"));
    JsonNode done = backfill(id);
    assertThat(done.path("submitted").asInt()).isEqualTo(6);
    assertThat(done.path("succeeded").asInt()).isEqualTo(6);
    assertThat(done.path("failed").asInt()).isZero();
    assertThat(done.path("running").asInt()).isZero();
    Map<String, Long> expected = new LinkedHashMap<>();
    for (int h = 0; h <= 5; h++) {
      long fire = from.plus(h, ChronoUnit.HOURS).toEpochMilli();
      expected.put(TriggerId.backfill(job, fire).value(), fire);
    }
    assertThat(starts.keySet().stream().filter(t -> new TriggerId(t).jobId().equals(job)))
        .containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.keySet().forEach(t -> assertThat(starts.get(t).get()).as(t).isEqualTo(1));
    expected.forEach((t, fire) -> assertThat(fireTimes.get(t)).as(t).isEqualTo(fire));
    assertThat(maxRunning.get()).as("most fires running at once").isBetween(1, 2);

    ApiTestNode.Response again = node.post("/api/v1/jobs/" + job + "/backfills", request, ADMIN);

    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.json().path("id").asText()).isEqualTo(id);
    assertThat(again.json().path("state").asText()).isEqualTo("SUCCEEDED");
    await("nothing more runs after the same request")
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(3))
        .until(() -> startsOf(job) == 6);
    JsonNode list = node.get("/api/v1/jobs/" + job + "/backfills", VIEWER).json();
    assertThat(list.path("items")).hasSize(1);
    assertThat(list.path("items").get(0).path("id").asText()).isEqualTo(id);
  }

  @Test
  void cancelStopsNewFiresAndRunningOnesEnd() {
    String job = hourlyJob("hold");
    Instant to = Instant.now().truncatedTo(ChronoUnit.HOURS);
    ApiTestNode.Response created =
        node.post(
            "/api/v1/jobs/" + job + "/backfills",
            body(to.minus(5, ChronoUnit.HOURS), to, 1),
            ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    String id = created.json().path("id").asText();
    await("the first fire runs")
        .atMost(DEADLINE)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> startsOf(job) == 1);

    ApiTestNode.Response viewer = node.post("/api/v1/backfills/" + id + "/cancel", null, VIEWER);
    ApiTestNode.Response cancelled = node.post("/api/v1/backfills/" + id + "/cancel", null, ADMIN);
    release.countDown();

    assertThat(viewer.status()).as(viewer.toString()).isEqualTo(403);
    assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
    assertThat(cancelled.json().path("state").asText()).isEqualTo("CANCELLED");
    assertThat(cancelled.json().path("submitted").asInt()).isEqualTo(1);
    await("no further fire after the cancel")
        .during(Duration.ofMillis(1_500))
        .atMost(Duration.ofSeconds(4))
        .until(() -> startsOf(job) == 1);
    assertThat(backfill(id).path("state").asText()).isEqualTo("CANCELLED");
    assertThat(backfill(id).path("submitted").asInt()).isEqualTo(1);
  }

  @Test
  void theConsoleStartsABackfillAndTheJobPageShowsItsProgress() {
    String job = hourlyJob("work");
    Instant to = Instant.now().truncatedTo(ChronoUnit.HOURS);
    Instant from = to.minus(1, ChronoUnit.HOURS);
    String id = job + "@" + from.toEpochMilli() + "-" + to.toEpochMilli();
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    admin.get("/console/jobs/" + job);

    ConsoleSession.Page posted =
        admin.post(
            "/console/jobs/" + job + "/backfills",
            Map.of("from", from.toString(), "to", to.toString(), "maxConcurrent", "2"));

    assertThat(posted.status()).as(posted.html()).isEqualTo(302);
    await("the console's backfill succeeds")
        .atMost(DEADLINE)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> assertThat(backfill(id).path("state").asText()).isEqualTo("SUCCEEDED"));
    String page = admin.get("/console/jobs/" + job).html();
    assertThat(page).contains("data-backfill=\"" + id + "\"").contains("SUCCEEDED");
    assertThat(page).contains("id=\"backfill-form\"");
    String viewerPage = ConsoleSession.signIn(node, VIEWER).get("/console/jobs/" + job).html();
    assertThat(viewerPage).contains("data-backfill=\"" + id + "\"");
    assertThat(viewerPage).doesNotContain("id=\"backfill-form\"");
  }

  @Test
  void badRequestsAre400sNamingTheFieldAndStartNothing() {
    String job = hourlyJob("work");
    Instant to = Instant.now().truncatedTo(ChronoUnit.HOURS);
    Instant from = to.minus(2, ChronoUnit.HOURS);
    String everySecond = "sec-" + RUN;
    assertThat(
            node.post(
                    "/api/v1/jobs",
                    ApiTestNode.json(
                        Map.of(
                            "id", everySecond,
                            "app", APP,
                            "handler", "work",
                            "scheduleType", "CRON",
                            "schedule", "* * * * * ?",
                            "zone", "UTC",
                            "enabled", false)),
                    ADMIN)
                .status())
        .isEqualTo(201);

    assertField(job, body(to, from, 1), "from");
    assertField(job, body(from, Instant.now().plus(1, ChronoUnit.HOURS), 1), "to");
    assertField(job, body(from, to, 0), "maxConcurrent");
    assertField(job, "{\"from\":\"yesterday\",\"to\":\"" + to + "\"}", "from");
    assertField(everySecond, body(to.minus(3, ChronoUnit.HOURS), to, 1), "to");
    ApiTestNode.Response viewer =
        node.post("/api/v1/jobs/" + job + "/backfills", body(from, to, 1), VIEWER);
    assertThat(viewer.status()).as(viewer.toString()).isEqualTo(403);
    assertThat(node.get("/api/v1/jobs/" + job + "/backfills", VIEWER).json().path("items"))
        .isEmpty();
    assertThat(node.get("/api/v1/jobs/" + everySecond + "/backfills", VIEWER).json().path("items"))
        .isEmpty();
  }

  private static void assertField(String job, String body, String field) {
    ApiTestNode.Response bad = node.post("/api/v1/jobs/" + job + "/backfills", body, ADMIN);
    assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
    assertThat(bad.contentType()).contains("problem+json");
    assertThat(bad.json().path("errors").findValuesAsText("field"))
        .as(bad.toString())
        .contains(field);
  }
}
