package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.log.TriggerLogSettings;
import dev.kairos.node.testing.InProcessExecutors;
import dev.kairos.sync.history.TriggerHistoryQueries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Live handler logs end to end: a real executor ships what its handlers log to Redis as they run,
 * the node serves it at {@code GET /api/v1/triggers/{id}/log} while the run is still going, and
 * from PostgreSQL (persistence-sync) once the Redis copy is gone.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class TriggerLogIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String APP = "hlogs-" + RUN;
  private static final int QUEUES = 1;
  private static final int CAP_LINES = 40;
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static final CountDownLatch release = new CountDownLatch(1);

  private static ApiTestNode node;
  private static KairosRedis redis;
  private static InProcessExecutors executors;
  private static RedisKeys keys;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) throws Exception {
    TriggerLogSettings logs =
        new TriggerLogSettings(
            true,
            CAP_LINES,
            TriggerLogSettings.DEFAULT_MAX_BYTES,
            TriggerLogSettings.DEFAULT_MAX_LINE_CHARS,
            Duration.ofMillis(100),
            TriggerLogSettings.DEFAULT_FLUSH_LINES,
            TriggerLogSettings.DEFAULT_TTL);
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "hlogs-it-" + RUN);
    overrides.put("kairos.zookeeper.root-path", "/kairos-hlogs-it-" + RUN);
    overrides.put("kairos.cluster.secret", "hlogs-it-secret");
    overrides.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    overrides.put("kairos.fire.broker-cluster", "kairos");
    node = ApiTestNode.start(infra, overrides);
    keys = node.context().getBean(RedisKeys.class);
    // After the node: it initialises Redis (the shard layout) that an executor reads at start.
    executors =
        InProcessExecutors.builder(infra, APP)
            .slots(QUEUES)
            .name("hlogs-executor-" + RUN)
            .settings(settings -> settings.withLog(logs))
            .handler(
                "chatty",
                ctx -> {
                  for (int i = 1; i <= 3; i++) {
                    ctx.log().info("before the latch {}", i);
                  }
                  release.await();
                  ctx.log().warn("released");
                  ctx.log().error("done with {}", "an error line", new IllegalStateException("x"));
                })
            .handler("quiet", ctx -> {})
            .handler(
                "flood",
                ctx -> {
                  for (int i = 1; i <= 100; i++) {
                    ctx.log().info("flood {}", i);
                  }
                })
            .start();
    redis = executors.redis();
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

  @Test
  void theLogIsReadableWhileTheRunGoesThenToItsEndThenFromPostgres() {
    String trigger = triggerNow(createJob("chatty-" + RUN, "chatty"));

    // While the handler waits on the latch: its first lines, read by a VIEWER, run not finished.
    JsonNode[] page = new JsonNode[1];
    await(
        "the first three lines while the run goes",
        () -> {
          page[0] = log(trigger, 0, VIEWER);
          return page[0].path("lines").size() == 3;
        });
    assertThat(page[0].path("finished").asBoolean()).isFalse();
    assertThat(page[0].path("state").asText()).isEqualTo("RUNNING");
    assertThat(page[0].path("source").asText()).isEqualTo("redis");
    assertThat(texts(page[0]))
        .containsExactly("before the latch 1", "before the latch 2", "before the latch 3");
    assertThat(page[0].path("lines").get(0).path("level").asText()).isEqualTo("INFO");
    assertThat(page[0].path("lines").get(0).path("tsMs").asLong()).isPositive();
    long cursor = page[0].path("nextCursor").asLong();
    assertThat(cursor).isEqualTo(3);
    assertThat(log(trigger, cursor, VIEWER).path("lines").size()).isZero();

    // The rest after it ends, from the cursor; finished once the trigger is final.
    release.countDown();
    await(
        "the run's end",
        () -> {
          page[0] = log(trigger, cursor, VIEWER);
          return page[0].path("finished").asBoolean();
        });
    assertThat(page[0].path("state").asText()).isEqualTo("SUCCESS");
    assertThat(page[0].path("more").asBoolean()).isFalse();
    assertThat(texts(page[0]))
        .containsExactly("released", "done with an error line: java.lang.IllegalStateException: x");
    assertThat(page[0].path("lines").get(1).path("level").asText()).isEqualTo("ERROR");

    // Later: persistence-sync copied the lines; once the Redis copy is gone (TTL), PostgreSQL.
    TriggerHistoryQueries history = node.context().getBean(TriggerHistoryQueries.class);
    await(
        "the log in PostgreSQL",
        () -> {
          try {
            return history.logLines(trigger, 0, 100).size() == 5;
          } catch (Exception e) {
            return false;
          }
        });
    String key = RedisKeys.triggerLog(keys.shardOf(new TriggerId(trigger).jobId()), trigger);
    assertThat(redis.sync().del(key)).isEqualTo(1);
    JsonNode fromPostgres = log(trigger, 0, VIEWER);
    assertThat(fromPostgres.path("source").asText()).isEqualTo("postgresql");
    assertThat(fromPostgres.path("finished").asBoolean()).isTrue();
    assertThat(texts(fromPostgres)).hasSize(5).startsWith("before the latch 1");
    JsonNode tail = log(trigger, 4, VIEWER);
    assertThat(texts(tail))
        .containsExactly("done with an error line: java.lang.IllegalStateException: x");
  }

  @Test
  void aRunThatLogsNothingMakesNoLogCall() {
    long callsBefore = executors.executor(0).logShipper().calls();
    String trigger = triggerNow(createJob("quiet-" + RUN, "quiet"));
    await("the quiet run's end", () -> log(trigger, 0, ADMIN).path("finished").asBoolean());
    JsonNode page = log(trigger, 0, ADMIN);
    assertThat(page.path("lines").size()).isZero();
    assertThat(page.path("source").asText()).isEqualTo("none");
    assertThat(executors.executor(0).logShipper().calls()).isEqualTo(callsBefore);
    String key = RedisKeys.triggerLog(keys.shardOf(new TriggerId(trigger).jobId()), trigger);
    assertThat(redis.sync().exists(key)).isZero();
  }

  @Test
  void aFloodIsCappedWithOneMarkerAndPagedByLimit() {
    String trigger = triggerNow(createJob("flood-" + RUN, "flood"));
    await("the flood's end", () -> log(trigger, 0, ADMIN).path("finished").asBoolean());
    List<String> all = new ArrayList<>();
    long cursor = 0;
    JsonNode page;
    do {
      page = node.get(logPath(trigger) + "?after=" + cursor + "&limit=15", ADMIN).json();
      all.addAll(texts(page));
      cursor = page.path("nextCursor").asLong();
    } while (page.path("more").asBoolean());
    assertThat(all).hasSize(CAP_LINES + 1);
    assertThat(all.get(CAP_LINES - 1)).isEqualTo("flood " + CAP_LINES);
    assertThat(all.get(CAP_LINES)).contains("log truncated");
  }

  @Test
  void aBadCursorIsA400NamingItAndAnUnknownTriggerA404() {
    String trigger = "nosuch-" + RUN + ":1700000000000";
    ApiTestNode.Response unknown = node.get(logPath(trigger), VIEWER);
    assertThat(unknown.status()).as(unknown.toString()).isEqualTo(404);
    for (String bad : List.of("abc", "-1", "1.5")) {
      ApiTestNode.Response r = node.get(logPath(trigger) + "?after=" + bad, VIEWER);
      assertThat(r.status()).as(r.toString()).isEqualTo(400);
      assertThat(r.contentType()).startsWith("application/problem+json");
      assertThat(r.body()).contains("after");
    }
    ApiTestNode.Response badLimit = node.get(logPath(trigger) + "?limit=0", VIEWER);
    assertThat(badLimit.status()).isEqualTo(400);
    assertThat(badLimit.body()).contains("limit");
    assertThat(node.get(logPath(trigger), null).status()).isEqualTo(401);
  }

  private static String logPath(String triggerId) {
    return "/api/v1/triggers/" + triggerId.replace("#", "%23") + "/log";
  }

  private static JsonNode log(String triggerId, long after, String token) {
    ApiTestNode.Response r = node.get(logPath(triggerId) + "?after=" + after, token);
    if (r.status() != 200) {
      // Runtime, so a poll reads it as "not yet" (an ad-hoc trigger has no record until claimed).
      throw new IllegalStateException("GET log of " + triggerId + ": " + r);
    }
    return r.json();
  }

  private static List<String> texts(JsonNode page) {
    List<String> texts = new ArrayList<>();
    page.path("lines").forEach(l -> texts.add(l.path("text").asText()));
    return texts;
  }

  private static String createJob(String id, String handler) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", id);
    job.put("app", APP);
    job.put("handler", handler);
    job.put("scheduleType", "API");
    job.put("schedule", "");
    ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return id;
  }

  private static String triggerNow(String jobId) {
    ApiTestNode.Response r = node.post("/api/v1/jobs/" + jobId + "/trigger", null, ADMIN);
    assertThat(r.status()).as(r.toString()).isEqualTo(202);
    return r.json().path("triggerId").asText();
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(WAIT, what, condition::getAsBoolean);
  }
}
