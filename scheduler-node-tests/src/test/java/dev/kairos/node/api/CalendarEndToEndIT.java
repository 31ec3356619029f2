package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.testing.InProcessExecutors;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Calendars on the real path: one node (Redis, ZooKeeper, RocketMQ, PostgreSQL) and an in-process
 * executor. A job firing every second names a calendar whose range covers a few upcoming seconds:
 * those fires are recorded SKIPPED and never reach the executor, the others run, and the preview
 * marks the skipped ones. Also the calendar API's 400s and its ADMIN-only writes.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class CalendarEndToEndIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String APP = "cal-" + RUN;
  private static final String HANDLER = "tick";
  private static final int QUEUES = 2;
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private static ApiTestNode node;
  private static InProcessExecutors executors;
  private static KairosRedis redis;
  private static String operator;
  private static final Set<String> ran = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) throws Exception {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "cal-it-" + RUN);
    overrides.put("kairos.zookeeper.root-path", "/kairos-cal-it-" + RUN);
    overrides.put("kairos.cluster.secret", "cal-it-secret");
    overrides.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    overrides.put("kairos.fire.broker-cluster", "kairos");
    node = ApiTestNode.start(infra, overrides);
    executors =
        InProcessExecutors.builder(infra, APP)
            .name("cal-executor-" + RUN)
            .slots(QUEUES)
            .handler(HANDLER, ctx -> ran.add(ctx.triggerId()))
            .start();
    redis = executors.redis();
    ApiTestNode.Response token =
        node.post(
            "/api/v1/tokens",
            ApiTestNode.json(
                Map.of(
                    "name", "cal-operator",
                    "owner", "it@example.com",
                    "role", "OPERATOR",
                    "apps", List.of(APP))),
            ADMIN);
    assertThat(token.status()).as(token.toString()).isEqualTo(201);
    operator = token.json().path("token").asText();
  }

  @AfterAll
  static void stop() {
    if (executors != null) {
      executors.close();
    }
    if (node != null) {
      node.close();
    }
  }

  private static String utc(long ms) {
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC).toString();
  }

  private static ApiTestNode.Response put(String name, Map<String, Object> body, String token) {
    return node.call("PUT", "/api/v1/calendars/" + name, ApiTestNode.json(body), token, Map.of());
  }

  private static List<String> errorFields(ApiTestNode.Response response) {
    List<String> fields = new ArrayList<>();
    response.json().path("errors").forEach(e -> fields.add(e.path("field").asText()));
    return fields;
  }

  @Test
  void firesInACalendarRangeAreRecordedSkippedNeverRunAndThePreviewShowsThem() {
    // A range of three whole seconds starting 4 s from now, in UTC: the job's zone.
    long from = (System.currentTimeMillis() / 1_000 + 4) * 1_000;
    long to = from + 3_000;
    String calendar = "window-" + RUN;
    ApiTestNode.Response written =
        put(
            calendar,
            Map.of(
                "description",
                "a maintenance window",
                "ranges",
                List.of(Map.of("from", utc(from), "to", utc(to)))),
            ADMIN);
    assertThat(written.status()).as(written.toString()).isEqualTo(200);
    assertThat(written.json().path("version").asLong()).isEqualTo(1);

    String jobId = "cal-job-" + RUN;
    ApiTestNode.Response created =
        node.post(
            "/api/v1/jobs",
            ApiTestNode.json(
                Map.of(
                    "id",
                    jobId,
                    "app",
                    APP,
                    "handler",
                    HANDLER,
                    "scheduleType",
                    "FIXED_RATE",
                    "schedule",
                    "1000",
                    "zone",
                    "UTC",
                    "calendars",
                    List.of(calendar))),
            operator);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.json().path("calendars").get(0).asText()).isEqualTo(calendar);

    // The preview of the stored job marks exactly the fires inside the range.
    JsonNode preview = node.get("/api/v1/jobs/" + jobId + "/next-fires?count=10", VIEWER).json();
    List<Long> previewSkipped = new ArrayList<>();
    for (JsonNode fire : preview.path("fires")) {
      long at = fire.path("epochMs").asLong();
      boolean inside = at >= from && at < to;
      assertThat(fire.path("skippedBy").asText(null)).isEqualTo(inside ? calendar : null);
      if (inside) {
        previewSkipped.add(at);
      }
    }
    assertThat(previewSkipped).hasSize(3);

    // Runs go on after the range; the fires in it are SKIPPED records, and none ran.
    await()
        .atMost(DEADLINE)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () ->
                assertThat(ran)
                    .as("a fire after the range ran")
                    .anyMatch(id -> id.startsWith(jobId + ":") && fireMs(id) >= to));
    int shard = keysShard(jobId);
    for (long skipped : previewSkipped) {
      String triggerId = jobId + ":" + skipped;
      assertThat(redis.sync().hgetall(RedisKeys.trigger(shard, triggerId)))
          .containsEntry("state", "SKIPPED")
          .containsEntry("calendar", calendar);
      assertThat(ran).doesNotContain(triggerId);
    }
    assertThat(ran.stream().filter(id -> id.startsWith(jobId + ":")).map(this::fireMs))
        .noneMatch(at -> at >= from && at < to)
        .anyMatch(at -> at < from);
    // The job's triggers, as the API lists them, show the skipped fires.
    await()
        .atMost(DEADLINE)
        .untilAsserted(
            () -> {
              JsonNode triggers = node.get("/api/v1/jobs/" + jobId + "/triggers", VIEWER).json();
              Set<String> skippedIds = new HashSet<>();
              triggers
                  .path("items")
                  .forEach(
                      t -> {
                        if ("SKIPPED".equals(t.path("state").asText())) {
                          skippedIds.add(t.path("triggerId").asText());
                        }
                      });
              assertThat(skippedIds)
                  .containsExactlyInAnyOrderElementsOf(
                      previewSkipped.stream()
                          .map(ms -> jobId + ":" + ms)
                          .collect(Collectors.toSet()));
            });
    assertThat(node.call("DELETE", "/api/v1/jobs/" + jobId, null, ADMIN, Map.of()).status())
        .isEqualTo(204);
  }

  private long fireMs(String triggerId) {
    String tail = triggerId.substring(triggerId.lastIndexOf(':') + 1);
    int end = 0;
    while (end < tail.length() && Character.isDigit(tail.charAt(end))) {
      end++;
    }
    return Long.parseLong(tail.substring(0, end));
  }

  private static int keysShard(String jobId) {
    return node.context().getBean(JobStore.class).keys().shardOf(jobId);
  }

  @Test
  void badCalendarsAre400sNamingTheFieldAndOnlyAdminsWriteCalendars() {
    String name = "rules-" + RUN;
    ApiTestNode.Response bad =
        put(
            name,
            Map.of(
                "dates", List.of("2026-02-30"),
                "weekdays", List.of("FUNDAY"),
                "dailyRanges", List.of("25:00-01:00"),
                "ranges", List.of(Map.of("from", "soon", "to", "2026-01-01T00:00"))),
            ADMIN);
    assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
    assertThat(bad.contentType()).contains("application/problem+json");
    assertThat(errorFields(bad))
        .containsExactly("dates[0]", "weekdays[0]", "dailyRanges[0]", "ranges[0].from");
    assertThat(node.get("/api/v1/calendars/" + name, VIEWER).status()).isEqualTo(404);

    Map<String, Object> weekends = Map.of("weekdays", List.of("SATURDAY", "SUNDAY"));
    assertThat(put(name, weekends, operator).status()).isEqualTo(403);
    assertThat(put(name, weekends, VIEWER).status()).isEqualTo(403);
    assertThat(node.get("/api/v1/calendars/" + name, VIEWER).status()).isEqualTo(404);

    assertThat(put(name, weekends, ADMIN).status()).isEqualTo(200);
    ApiTestNode.Response again = put(name, weekends, ADMIN);
    assertThat(again.json().path("version").asLong()).isEqualTo(2);
    ApiTestNode.Response read = node.get("/api/v1/calendars/" + name, operator);
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json().path("weekdays").toString()).contains("SATURDAY", "SUNDAY");
    assertThat(node.get("/api/v1/calendars", VIEWER).json().findValuesAsText("name"))
        .contains(name);

    // A job naming a calendar that does not exist is refused, naming the field.
    ApiTestNode.Response job =
        node.post(
            "/api/v1/jobs",
            ApiTestNode.json(
                Map.of(
                    "id",
                    "cal-unknown-" + RUN,
                    "app",
                    APP,
                    "handler",
                    HANDLER,
                    "scheduleType",
                    "CRON",
                    "schedule",
                    "0 0 3 * * *",
                    "calendars",
                    List.of("no-such-" + RUN))),
            operator);
    assertThat(job.status()).as(job.toString()).isEqualTo(400);
    assertThat(errorFields(job)).containsExactly("calendars");
    ApiTestNode.Response preview =
        node.post(
            "/api/v1/schedules/preview",
            ApiTestNode.json(
                Map.of(
                    "scheduleType",
                    "CRON",
                    "schedule",
                    "0 0 12 * * *",
                    "zone",
                    "Europe/Berlin",
                    "fromMs",
                    1_795_000_000_000L, // seven daily fires hold one weekend
                    "count",
                    7,
                    "calendars",
                    List.of(name))),
            VIEWER);
    assertThat(preview.status()).as(preview.toString()).isEqualTo(200);
    assertThat(preview.json().findValuesAsText("skippedBy")).hasSize(2).containsOnly(name);

    assertThat(node.call("DELETE", "/api/v1/calendars/" + name, null, operator, Map.of()).status())
        .isEqualTo(403);
    assertThat(node.call("DELETE", "/api/v1/calendars/" + name, null, ADMIN, Map.of()).status())
        .isEqualTo(204);
    assertThat(node.call("DELETE", "/api/v1/calendars/" + name, null, ADMIN, Map.of()).status())
        .isEqualTo(404);
  }
}
