package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.protocol.record.TriggerFields;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input and authorization, each asserted on status, problem type and field, and on Redis: a
 * DUMP of every {@code kairos:} key before and after every rejected call must match. The node runs
 * without fire path, leadership, persistence-sync and lifecycle worker so nothing else writes Redis
 * meanwhile, with small limits so they are cheap to exceed.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class AdminApiInputIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String JOB = "input-" + RUN;
  private static final String WORKFLOW = "input-wf-" + RUN;
  private static final int MAX_BATCH = 5;
  private static final String MAX_BODY = "256KB";

  /** A trigger that ended (SUCCESS): a cancel must be refused and change nothing. */
  private static final String ENDED_TRIGGER = JOB + ":1700000000000";

  /** A "trigger now" that waits to be claimed forever (this node never leads). */
  private static String waitingTrigger;

  /** Tokens created through the API at start: a viewer, and an admin revoked at once. */
  private static String runtimeViewer;

  private static String revokedAdmin;

  private static String operatorIn;
  private static String viewerIn;
  private static String operatorOut;
  private static String viewerOut;

  private static ApiTestNode node;
  private static RedisClient redisClient;
  private static StatefulRedisConnection<String, String> redis;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "api-input-" + RUN);
    overrides.put("kairos.fire.enabled", "false");
    overrides.put("kairos.cluster.leadership.enabled", "false");
    overrides.put("kairos.sync.enabled", "false");
    // The lifecycle worker reads the events streams with its consumer group, which changes their
    // DUMP (last-delivered id) while a request is under test.
    overrides.put("kairos.lifecycle.enabled", "false");
    overrides.put("kairos.api.max-batch-size", Integer.toString(MAX_BATCH));
    overrides.put("kairos.api.max-body-size", MAX_BODY);
    node = ApiTestNode.start(infra, overrides);
    redisClient = RedisClient.create(infra.redis().uri());
    redis = redisClient.connect();
    ApiTestNode.Response created = node.post("/api/v1/jobs", job(Map.of("id", JOB)), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    // No fire path runs here, so the ended trigger is written as complete_trigger leaves one.
    RedisKeys keys = node.context().getBean(RedisKeys.class);
    String record = RedisKeys.trigger(keys.shardOf(JOB), ENDED_TRIGGER);
    redis
        .sync()
        .hset(
            record,
            Map.of(
                TriggerFields.ID, ENDED_TRIGGER,
                TriggerFields.JOB_ID, JOB,
                TriggerFields.FIRE_MS, "1700000000000",
                TriggerFields.STATE, "SUCCESS",
                TriggerFields.EXECUTOR, "exec-1",
                TriggerFields.ENDED_MS, "1700000000500"));
    redis.sync().pexpire(record, Duration.ofMinutes(10).toMillis());
    ApiTestNode.Response now = node.post("/api/v1/jobs/" + JOB + "/trigger", null, ADMIN);
    assertThat(now.status()).as(now.toString()).isEqualTo(202);
    waitingTrigger = now.json().path("triggerId").asText();
    ApiTestNode.Response workflow =
        node.post(
            "/api/v1/workflows",
            "{\"id\":\""
                + WORKFLOW
                + "\",\"app\":\"input-app\",\"nodes\":[{\"name\":\"only\",\"jobId\":\""
                + JOB
                + "\"}],\"edges\":[]}",
            ADMIN);
    assertThat(workflow.status()).as(workflow.toString()).isEqualTo(201);
    runtimeViewer = createToken("runtime-viewer", "VIEWER").path("token").asText();
    operatorIn = createToken("op-in", "OPERATOR", "input-app", "matrix-app").path("token").asText();
    viewerIn = createToken("viewer-in", "VIEWER", "input-app").path("token").asText();
    operatorOut = createToken("op-out", "OPERATOR", "other-app").path("token").asText();
    viewerOut = createToken("viewer-out", "VIEWER", "other-app").path("token").asText();
    JsonNode revoked = createToken("revoked-admin", "ADMIN");
    revokedAdmin = revoked.path("token").asText();
    String revokedId = revoked.path("details").path("id").asText();
    assertThat(node.call("DELETE", "/api/v1/tokens/" + revokedId, null, ADMIN, Map.of()).status())
        .isEqualTo(204);
  }

  private static JsonNode createToken(String name, String role, String... apps) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("owner", "it@example.com");
    body.put("role", role);
    body.put("apps", List.of(apps));
    ApiTestNode.Response created = node.post("/api/v1/tokens", ApiTestNode.json(body), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.json();
  }

  @AfterAll
  static void stop() {
    // The auth matrix pauses the cluster as an admin; the flag is shared by every class of the JVM.
    if (node != null) {
      node.post("/api/v1/cluster/resume", null, ADMIN);
    }
    if (redis != null) {
      redis.close();
      redisClient.shutdown();
    }
    if (node != null) {
      node.close();
    }
  }

  /** A valid cron job with {@code changes} applied (a null value removes the field). */
  static String job(Map<String, Object> changes) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", "new-" + RUN);
    job.put("app", "input-app");
    job.put("handler", "input");
    job.put("scheduleType", "CRON");
    job.put("schedule", "0 0 3 * * *");
    job.put("zone", "UTC");
    changes.forEach(
        (k, v) -> {
          if (v == null) {
            job.remove(k);
          } else {
            job.put(k, v);
          }
        });
    return ApiTestNode.json(job);
  }

  static String jobWith(String field, Object value) {
    Map<String, Object> changes = new LinkedHashMap<>();
    changes.put(field, value);
    return job(changes);
  }

  /** One bad request and what it must answer. {@code field} null: no field is named. */
  record Case(
      String name,
      String method,
      String path,
      String body,
      Map<String, String> headers,
      int status,
      String code,
      String field) {

    @Override
    public String toString() {
      return name;
    }
  }

  private static Case post(String name, String body, int status, String code, String field) {
    return new Case(name, "POST", "/api/v1/jobs", body, Map.of(), status, code, field);
  }

  private static Case call(
      String name, String method, String path, String body, int status, String code, String field) {
    return new Case(name, method, path, body, Map.of(), status, code, field);
  }

  static Stream<Case> badInput() {
    String jobPath = "/api/v1/jobs/" + JOB;
    String tooBigParams = "x".repeat(64 * 1024 + 1);
    String tooBigBody = jobWith("params", "y".repeat(300 * 1024));
    String oneImport = job(Map.of("id", "imp-a-" + RUN));
    List<Case> cases = new ArrayList<>();
    // The body is not JSON, or not the right shape.
    cases.add(post("malformed JSON", "{\"id\": ", 400, "malformed-request", null));
    cases.add(post("empty body", "", 400, "malformed-request", null));
    cases.add(post("JSON null", "null", 400, "malformed-request", null));
    cases.add(post("array instead of object", "[1,2]", 400, "malformed-request", null));
    cases.add(post("trailing garbage", job(Map.of()) + " x", 400, "malformed-request", null));
    cases.add(
        post(
            "duplicate key",
            "{\"id\":\"a-" + RUN + "\",\"id\":\"b\"}",
            400,
            "malformed-request",
            null));
    // Wrong types and unknown names.
    cases.add(post("unknown field", jobWith("retrycount", 3), 400, "invalid-field", "retrycount"));
    cases.add(
        post(
            "unknown schedule type",
            jobWith("scheduleType", "HOURLY"),
            400,
            "invalid-field",
            "scheduleType"));
    cases.add(
        post("lower-case enum", jobWith("routing", "first"), 400, "invalid-field", "routing"));
    cases.add(post("enum as a number", jobWith("block", 1), 400, "invalid-field", "block"));
    cases.add(
        post("number as a string", jobWith("timeoutMs", "10"), 400, "invalid-field", "timeoutMs"));
    cases.add(
        post(
            "fraction for an integer",
            jobWith("timeoutMs", 1.5),
            400,
            "invalid-field",
            "timeoutMs"));
    cases.add(
        post(
            "integer out of range",
            jobWith("retryCount", 99_999_999_999L),
            400,
            "invalid-field",
            "retryCount"));
    cases.add(
        post("boolean as a string", jobWith("enabled", "yes"), 400, "invalid-field", "enabled"));
    cases.add(post("boolean as a number", jobWith("enabled", 1), 400, "invalid-field", "enabled"));
    cases.add(post("string as a number", jobWith("app", 5), 400, "invalid-field", "app"));
    cases.add(
        post(
            "params as an object",
            jobWith("params", Map.of("a", 1)),
            400,
            "invalid-field",
            "params"));
    cases.add(
        post(
            "unknown backoff kind",
            jobWith("retryBackoff", Map.of("kind", "LINEAR")),
            400,
            "invalid-field",
            "retryBackoff.kind"));
    cases.add(
        post(
            "backoff as a string",
            jobWith("retryBackoff", "FIXED:1:1:0"),
            400,
            "invalid-field",
            "retryBackoff"));
    // Values that break a rule.
    cases.add(post("missing id", jobWith("id", null), 400, "validation-failed", "id"));
    cases.add(post("id with a space", jobWith("id", "a b"), 400, "validation-failed", "id"));
    cases.add(post("id too long", jobWith("id", "i".repeat(65)), 400, "validation-failed", "id"));
    cases.add(post("missing app", jobWith("app", null), 400, "validation-failed", "app"));
    cases.add(post("app with braces", jobWith("app", "a{b}"), 400, "validation-failed", "app"));
    cases.add(
        post("missing handler", jobWith("handler", null), 400, "validation-failed", "handler"));
    cases.add(
        post(
            "cron second 61",
            jobWith("schedule", "61 * * * * *"),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "five-field cron",
            jobWith("schedule", "* * * * *"),
            400,
            "validation-failed",
            "schedule"));
    cases.add(post("unknown zone", jobWith("zone", "Mars/Base"), 400, "validation-failed", "zone"));
    cases.add(
        post(
            "unknown cron dialect",
            jobWith("cronDialect", "SPRING"),
            400,
            "invalid-field",
            "cronDialect"));
    cases.add(
        post(
            "quartz cron with both day fields",
            job(Map.of("cronDialect", "QUARTZ", "schedule", "0 0 3 1 * 2")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "quartz day-of-week 0",
            job(Map.of("cronDialect", "QUARTZ", "schedule", "0 0 3 ? * 0")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "zero fixed rate",
            job(Map.of("scheduleType", "FIXED_RATE", "schedule", "0")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "fixed rate of a thousand fires a second",
            job(Map.of("scheduleType", "FIXED_RATE", "schedule", "1")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "fixed delay beyond ten years",
            job(Map.of("scheduleType", "FIXED_DELAY", "schedule", "315360000001")),
            400,
            "validation-failed",
            "schedule"));
    for (String at : List.of("1000", "-1", Long.toString(Long.MAX_VALUE))) {
      cases.add(
          post(
              "one-shot at " + at,
              job(Map.of("scheduleType", "ONE_SHOT", "schedule", at)),
              400,
              "validation-failed",
              "schedule"));
    }
    cases.add(
        post(
            "cron on February 30",
            job(Map.of("schedule", "0 0 0 30 2 *")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "quartz cron in a past year",
            job(Map.of("cronDialect", "QUARTZ", "schedule", "0 0 0 ? 1 2 2001")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "fixed rate not a number",
            job(Map.of("scheduleType", "FIXED_RATE", "schedule", "abc")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "one-shot without instant",
            job(Map.of("scheduleType", "ONE_SHOT", "schedule", "")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post(
            "API job with a spec",
            job(Map.of("scheduleType", "API", "schedule", "5")),
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        post("negative timeout", jobWith("timeoutMs", -1), 400, "validation-failed", "timeoutMs"));
    cases.add(
        post(
            "retry count 101", jobWith("retryCount", 101), 400, "validation-failed", "retryCount"));
    cases.add(
        post("retry count -1", jobWith("retryCount", -1), 400, "validation-failed", "retryCount"));
    cases.add(
        post(
            "misfire threshold below pre-read",
            jobWith("misfireThresholdMs", 100),
            400,
            "validation-failed",
            "misfireThresholdMs"));
    cases.add(
        post(
            "backoff max below initial",
            jobWith("retryBackoff", Map.of("kind", "FIXED", "initialDelayMs", 10, "maxDelayMs", 5)),
            400,
            "validation-failed",
            "retryBackoff"));
    cases.add(
        post(
            "jitter above 1",
            jobWith("retryBackoff", Map.of("kind", "EXPONENTIAL", "jitter", 2.0)),
            400,
            "validation-failed",
            "retryBackoff"));
    cases.add(
        post(
            "params over 64 KiB",
            jobWith("params", tooBigParams),
            400,
            "validation-failed",
            "params"));
    cases.add(post("body over the limit", tooBigBody, 413, "payload-too-large", null));
    cases.add(
        new Case(
            "not JSON content",
            "POST",
            "/api/v1/jobs",
            job(Map.of()),
            Map.of("Content-Type", "text/plain"),
            415,
            "unsupported-media-type",
            "Content-Type"));
    // Full update.
    cases.add(
        new Case(
            "If-Match not a version",
            "PUT",
            jobPath,
            jobWith("id", JOB),
            Map.of("If-Match", "abc"),
            400,
            "invalid-field",
            "If-Match"));
    cases.add(
        new Case(
            "update changing the id",
            "PUT",
            jobPath,
            jobWith("id", "other"),
            Map.of("If-Match", "\"1\""),
            400,
            "invalid-field",
            "id"));
    cases.add(
        call(
            "update without If-Match",
            "PUT",
            jobPath,
            jobWith("id", JOB),
            428,
            "precondition-required",
            "If-Match"));
    cases.add(
        new Case(
            "If-Match and version disagree",
            "PUT",
            jobPath,
            job(Map.of("id", JOB, "version", 7)),
            Map.of("If-Match", "\"1\""),
            400,
            "invalid-field",
            "version"));
    cases.add(
        new Case(
            "stale If-Match",
            "PUT",
            jobPath,
            jobWith("id", JOB),
            Map.of("If-Match", "\"99\""),
            409,
            "version-conflict",
            null));
    cases.add(
        new Case(
            "weak ETag in If-Match",
            "PUT",
            jobPath,
            jobWith("id", JOB),
            Map.of("If-Match", "W/\"1\""),
            412,
            "precondition-failed",
            "If-Match"));
    cases.add(
        new Case(
            "weak ETag in If-Match on delete",
            "DELETE",
            jobPath,
            null,
            Map.of("If-Match", "W/\"1\""),
            412,
            "precondition-failed",
            "If-Match"));
    cases.add(
        new Case(
            "invalid cron on update",
            "PUT",
            jobPath,
            job(Map.of("id", JOB, "schedule", "not a cron")),
            Map.of("If-Match", "\"1\""),
            400,
            "validation-failed",
            "schedule"));
    // Paths and parameters.
    cases.add(
        call(
            "job id with a space",
            "GET",
            "/api/v1/jobs/bad%20id",
            null,
            400,
            "invalid-field",
            "id"));
    cases.add(
        call(
            "enable unknown job",
            "POST",
            "/api/v1/jobs/nope-" + RUN + "/enable",
            null,
            404,
            "job-not-found",
            null));
    cases.add(
        call(
            "delete unknown job",
            "DELETE",
            "/api/v1/jobs/nope-" + RUN,
            null,
            404,
            "job-not-found",
            null));
    cases.add(
        call("negative page", "GET", "/api/v1/jobs?page=-1", null, 400, "invalid-field", "page"));
    cases.add(
        call("page size 0", "GET", "/api/v1/jobs?size=0", null, 400, "invalid-field", "size"));
    cases.add(
        call(
            "page size over max",
            "GET",
            "/api/v1/jobs?size=501",
            null,
            400,
            "limit-exceeded",
            "size"));
    cases.add(
        call(
            "page not a number",
            "GET",
            "/api/v1/jobs?page=abc",
            null,
            400,
            "invalid-field",
            "page"));
    cases.add(
        call(
            "enabled not a boolean",
            "GET",
            "/api/v1/jobs?enabled=maybe",
            null,
            400,
            "invalid-field",
            "enabled"));
    cases.add(
        call(
            "cursor not one the list gave",
            "GET",
            "/api/v1/jobs?cursor=not-a-cursor",
            null,
            400,
            "invalid-field",
            "cursor"));
    cases.add(
        call(
            "cursor naming no valid job id",
            "GET",
            "/api/v1/jobs?cursor=MTphIGI",
            null,
            400,
            "invalid-field",
            "cursor"));
    cases.add(
        call(
            "cursor and page together",
            "GET",
            "/api/v1/jobs?cursor=MTpqb2I&page=1",
            null,
            400,
            "invalid-field",
            "cursor"));
    cases.add(
        call(
            "id prefix with a space",
            "GET",
            "/api/v1/jobs?idPrefix=a%20b",
            null,
            400,
            "invalid-field",
            "idPrefix"));
    // Previews.
    String preview = "/api/v1/schedules/preview";
    cases.add(
        call(
            "preview of a quartz cron with a year field in the default dialect",
            "POST",
            preview,
            "{\"scheduleType\":\"CRON\",\"schedule\":\"0 0 3 ? * 2 2030\"}",
            400,
            "validation-failed",
            "schedule"));
    cases.add(
        call(
            "preview count 0",
            "POST",
            preview,
            "{\"scheduleType\":\"CRON\",\"schedule\":\"* * * * * *\",\"count\":0}",
            400,
            "invalid-field",
            "count"));
    cases.add(
        call(
            "preview count over max",
            "POST",
            preview,
            "{\"scheduleType\":\"CRON\",\"schedule\":\"* * * * * *\",\"count\":101}",
            400,
            "limit-exceeded",
            "count"));
    cases.add(
        call(
            "preview without type",
            "POST",
            preview,
            "{\"schedule\":\"* * * * * *\"}",
            400,
            "validation-failed",
            "scheduleType"));
    cases.add(
        call(
            "preview unknown zone",
            "POST",
            preview,
            "{\"scheduleType\":\"CRON\",\"schedule\":\"* * * * * *\",\"zone\":\"Nowhere/X\"}",
            400,
            "validation-failed",
            "zone"));
    cases.add(
        call(
            "next fires over max",
            "GET",
            jobPath + "/next-fires?count=1000",
            null,
            400,
            "limit-exceeded",
            "count"));
    // Batches.
    String disable = "/api/v1/job-batches/disable";
    cases.add(call("batch without ids", "POST", disable, "{}", 400, "invalid-field", "ids"));
    cases.add(
        call("batch with no ids", "POST", disable, "{\"ids\":[]}", 400, "invalid-field", "ids"));
    cases.add(
        call(
            "batch with a bad id",
            "POST",
            disable,
            "{\"ids\":[\"" + JOB + "\",\"a b\"]}",
            400,
            "invalid-field",
            "ids[1]"));
    cases.add(
        call(
            "batch with a duplicate",
            "POST",
            disable,
            "{\"ids\":[\"" + JOB + "\",\"" + JOB + "\"]}",
            400,
            "invalid-field",
            "ids[1]"));
    cases.add(
        call(
            "batch over max",
            "POST",
            disable,
            "{\"ids\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"]}",
            400,
            "limit-exceeded",
            "ids"));
    cases.add(
        call(
            "batch ids not an array",
            "POST",
            disable,
            "{\"ids\":\"a\"}",
            400,
            "invalid-field",
            "ids"));
    // Import.
    String imports = "/api/v1/job-import";
    cases.add(
        call(
            "import with one bad job",
            "POST",
            imports,
            "{\"formatVersion\":1,\"jobs\":["
                + oneImport
                + ","
                + job(Map.of("id", "imp-b-" + RUN, "schedule", "bad"))
                + "]}",
            400,
            "validation-failed",
            "jobs[1].schedule"));
    cases.add(
        call(
            "import with a duplicate id",
            "POST",
            imports,
            "{\"formatVersion\":1,\"jobs\":[" + oneImport + "," + oneImport + "]}",
            400,
            "validation-failed",
            "jobs[1].id"));
    cases.add(
        call(
            "import of another format",
            "POST",
            imports,
            "{\"formatVersion\":2,\"jobs\":[" + oneImport + "]}",
            400,
            "invalid-field",
            "formatVersion"));
    cases.add(
        call(
            "import without formatVersion",
            "POST",
            imports,
            "{\"jobs\":[" + oneImport + "]}",
            400,
            "invalid-field",
            "formatVersion"));
    cases.add(
        call(
            "import without jobs",
            "POST",
            imports,
            "{\"formatVersion\":1}",
            400,
            "invalid-field",
            "jobs"));
    cases.add(
        call(
            "import over max",
            "POST",
            imports,
            "{\"formatVersion\":1,\"jobs\":["
                + String.join(",", java.util.Collections.nCopies(MAX_BATCH + 1, oneImport))
                + "]}",
            400,
            "limit-exceeded",
            "jobs"));
    cases.add(
        call(
            "import with a wrong type",
            "POST",
            imports,
            "{\"formatVersion\":1,\"jobs\":[" + jobWith("timeoutMs", "x") + "]}",
            400,
            "invalid-field",
            "jobs[0].timeoutMs"));
    cases.add(
        call(
            "import dryRun not a boolean",
            "POST",
            imports + "?dryRun=maybe",
            "{\"formatVersion\":1,\"jobs\":[" + oneImport + "]}",
            400,
            "invalid-field",
            "dryRun"));
    // Trigger now and child jobs.
    String triggerNow = jobPath + "/trigger";
    cases.add(
        call(
            "trigger now with params over 64 KiB",
            "POST",
            triggerNow,
            ApiTestNode.json(Map.of("params", tooBigParams)),
            400,
            "validation-failed",
            "params"));
    cases.add(
        call(
            "trigger now with an unknown field",
            "POST",
            triggerNow,
            "{\"param\":\"x\"}",
            400,
            "invalid-field",
            "param"));
    cases.add(
        call(
            "trigger now of an unknown job",
            "POST",
            "/api/v1/jobs/nope-" + RUN + "/trigger",
            null,
            404,
            "job-not-found",
            null));
    cases.add(
        post(
            "child job is the job itself",
            job(Map.of("id", "self-" + RUN, "childJobIds", List.of("self-" + RUN))),
            400,
            "validation-failed",
            "childJobIds"));
    cases.add(
        post(
            "child job id invalid",
            jobWith("childJobIds", List.of("a b")),
            400,
            "validation-failed",
            "childJobIds"));
    cases.add(
        post(
            "child jobs not an array",
            jobWith("childJobIds", "other"),
            400,
            "invalid-field",
            "childJobIds"));
    // Job features: description, owner, the job's own alarm recipients.
    cases.add(
        post(
            "description over 1000 characters",
            jobWith("description", "d".repeat(1001)),
            400,
            "validation-failed",
            "description"));
    cases.add(
        post(
            "owner over 200 characters",
            jobWith("owner", "o".repeat(201)),
            400,
            "validation-failed",
            "owner"));
    cases.add(
        post(
            "owner on two lines",
            jobWith("owner", "ops\nBcc: x"),
            400,
            "validation-failed",
            "owner"));
    cases.add(post("owner as a number", jobWith("owner", 7), 400, "invalid-field", "owner"));
    cases.add(
        post(
            "alarm email not an address",
            jobWith("alarmEmails", List.of("ops@example.com", "not-an-address")),
            400,
            "validation-failed",
            "alarmEmails"));
    cases.add(
        post(
            "alarm email with a display name",
            jobWith("alarmEmails", List.of("Ops <ops@example.com>")),
            400,
            "validation-failed",
            "alarmEmails"));
    cases.add(
        post(
            "alarm emails not an array",
            jobWith("alarmEmails", "ops@example.com"),
            400,
            "invalid-field",
            "alarmEmails"));
    List<String> tooManyEmails = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      tooManyEmails.add("u" + i + "@example.com");
    }
    cases.add(
        post(
            "21 alarm emails",
            jobWith("alarmEmails", tooManyEmails),
            400,
            "validation-failed",
            "alarmEmails"));
    cases.add(
        post(
            "alarm webhook not http",
            jobWith("alarmWebhooks", List.of("ftp://hooks.example.com/a")),
            400,
            "validation-failed",
            "alarmWebhooks"));
    cases.add(
        post(
            "alarm webhook relative",
            jobWith("alarmWebhooks", List.of("/hooks/a")),
            400,
            "validation-failed",
            "alarmWebhooks"));
    cases.add(
        post(
            "alarm webhook null",
            jobWith("alarmWebhooks", java.util.Arrays.asList((String) null)),
            400,
            "validation-failed",
            "alarmWebhooks"));
    cases.add(
        new Case(
            "update with a bad alarm webhook",
            "PUT",
            jobPath,
            job(Map.of("id", JOB, "alarmWebhooks", List.of("https://hooks.example.com/a b"))),
            Map.of("If-Match", "\"1\""),
            400,
            "validation-failed",
            "alarmWebhooks"));
    // Runtime API tokens.
    String tokens = "/api/v1/tokens";
    cases.add(
        call(
            "token without a name",
            "POST",
            tokens,
            "{\"owner\":\"team-a\",\"role\":\"VIEWER\"}",
            400,
            "validation-failed",
            "name"));
    cases.add(
        call(
            "token without an owner",
            "POST",
            tokens,
            "{\"name\":\"dash\",\"role\":\"VIEWER\"}",
            400,
            "validation-failed",
            "owner"));
    cases.add(
        call(
            "token role that does not exist",
            "POST",
            tokens,
            "{\"name\":\"dash\",\"owner\":\"team-a\",\"role\":\"ROOT\"}",
            400,
            "invalid-field",
            "role"));
    cases.add(
        call(
            "token that expired already",
            "POST",
            tokens,
            "{\"name\":\"dash\",\"owner\":\"team-a\",\"role\":\"VIEWER\","
                + "\"expiresAt\":\"2020-01-01T00:00:00Z\"}",
            400,
            "validation-failed",
            "expiresAt"));
    cases.add(
        call(
            "token living past the maximum lifetime",
            "POST",
            tokens,
            "{\"name\":\"dash\",\"owner\":\"team-a\",\"role\":\"VIEWER\","
                + "\"expiresAt\":\"2999-01-01T00:00:00Z\"}",
            400,
            "validation-failed",
            "expiresAt"));
    cases.add(
        call(
            "token with an unknown field",
            "POST",
            tokens,
            "{\"name\":\"dash\",\"owner\":\"team-a\",\"role\":\"VIEWER\",\"scopes\":[]}",
            400,
            "invalid-field",
            "scopes"));
    cases.add(
        call(
            "revoking a token that does not exist",
            "DELETE",
            tokens + "/tok_0000000000000000",
            null,
            404,
            "not-found",
            null));
    // Console users.
    String users = "/api/v1/users";
    cases.add(
        call(
            "user password too short",
            "POST",
            users,
            "{\"username\":\"ann\",\"password\":\"short\",\"role\":\"VIEWER\"}",
            400,
            "validation-failed",
            "password"));
    cases.add(
        call(
            "user with a METRICS role",
            "POST",
            users,
            "{\"username\":\"ann\",\"password\":\"a long passphrase\",\"role\":\"METRICS\"}",
            400,
            "validation-failed",
            "role"));
    cases.add(
        call(
            "operator user without apps",
            "POST",
            users,
            "{\"username\":\"ann\",\"password\":\"a long passphrase\",\"role\":\"OPERATOR\"}",
            400,
            "validation-failed",
            "apps"));
    cases.add(
        call(
            "user name with a space",
            "POST",
            users,
            "{\"username\":\"a b\",\"password\":\"a long passphrase\",\"role\":\"VIEWER\"}",
            400,
            "validation-failed",
            "username"));
    cases.add(
        call(
            "password change of a user that does not exist",
            "PUT",
            users + "/nobody-" + RUN + "/password",
            "{\"password\":\"a long passphrase\"}",
            404,
            "not-found",
            null));
    // Per-app settings.
    String appPath = "/api/v1/apps/input-app";
    cases.add(
        call(
            "app name too long",
            "PUT",
            "/api/v1/apps/" + "a".repeat(65),
            "{}",
            400,
            "invalid-field",
            "app"));
    cases.add(
        call(
            "app description over 1000 characters",
            "PUT",
            appPath,
            "{\"description\":\"" + "d".repeat(1001) + "\"}",
            400,
            "validation-failed",
            "description"));
    cases.add(
        call(
            "unknown default routing",
            "PUT",
            appPath,
            "{\"defaultRouting\":\"NEAREST\"}",
            400,
            "invalid-field",
            "defaultRouting"));
    cases.add(
        call(
            "unknown app field", "PUT", appPath, "{\"name\":\"x\"}", 400, "invalid-field", "name"));
    cases.add(
        call("app settings without a body", "PUT", appPath, "", 400, "malformed-request", null));
    // Trigger now on a chosen slot.
    cases.add(
        call(
            "negative slot",
            "POST",
            jobPath + "/trigger",
            "{\"slot\":-1}",
            400,
            "validation-failed",
            "slot"));
    cases.add(
        call(
            "slot beyond 1023",
            "POST",
            jobPath + "/trigger",
            "{\"slot\":1024}",
            400,
            "validation-failed",
            "slot"));
    cases.add(
        call(
            "slot as a string",
            "POST",
            jobPath + "/trigger",
            "{\"slot\":\"2\"}",
            400,
            "invalid-field",
            "slot"));
    cases.add(
        call(
            "fractional slot",
            "POST",
            jobPath + "/trigger",
            "{\"slot\":1.5}",
            400,
            "invalid-field",
            "slot"));
    // Copy a job.
    cases.add(
        call(
            "copy to an invalid id",
            "POST",
            jobPath + "/copy",
            "{\"id\":\"a b\"}",
            400,
            "validation-failed",
            "id"));
    cases.add(
        call(
            "copy with an unknown field",
            "POST",
            jobPath + "/copy",
            "{\"id\":\"c-" + RUN + "\",\"enabled\":true}",
            400,
            "invalid-field",
            "enabled"));
    cases.add(
        call(
            "copy onto itself",
            "POST",
            jobPath + "/copy",
            "{\"id\":\"" + JOB + "\"}",
            409,
            "job-exists",
            null));
    cases.add(
        call(
            "copy of an unknown job",
            "POST",
            "/api/v1/jobs/nope-" + RUN + "/copy",
            null,
            404,
            "job-not-found",
            null));
    // Triggers and executors.
    cases.add(
        call(
            "trigger id without colon",
            "GET",
            "/api/v1/triggers/nocolon",
            null,
            400,
            "invalid-field",
            "triggerId"));
    cases.add(
        call(
            "unknown trigger",
            "GET",
            "/api/v1/triggers/" + JOB + ":1",
            null,
            404,
            "trigger-not-found",
            null));
    // Cancel.
    cases.add(
        call(
            "cancel of a trigger id without colon",
            "POST",
            "/api/v1/triggers/nocolon/cancel",
            null,
            400,
            "invalid-field",
            "triggerId"));
    cases.add(
        call(
            "cancel of a trigger id with a bad job id",
            "POST",
            "/api/v1/triggers/a%20b:1/cancel",
            null,
            400,
            "invalid-field",
            "triggerId"));
    cases.add(
        call(
            "cancel of an over-long trigger id",
            "POST",
            "/api/v1/triggers/" + JOB + ":" + "1".repeat(300) + "/cancel",
            null,
            400,
            "invalid-field",
            "triggerId"));
    cases.add(
        call(
            "cancel of an unknown trigger",
            "POST",
            "/api/v1/triggers/" + JOB + ":1/cancel",
            null,
            404,
            "trigger-not-found",
            null));
    cases.add(
        call(
            "cancel of a trigger that ended",
            "POST",
            "/api/v1/triggers/" + ENDED_TRIGGER + "/cancel",
            null,
            409,
            "trigger-final",
            null));
    cases.add(
        call(
            "cancel of a trigger waiting to be claimed",
            "POST",
            "/api/v1/triggers/" + waitingTrigger + "/cancel",
            null,
            409,
            "trigger-waiting",
            null));
    cases.add(
        call(
            "POST to a trigger",
            "POST",
            "/api/v1/triggers/" + ENDED_TRIGGER,
            null,
            405,
            "method-not-allowed",
            null));
    cases.add(
        call(
            "bad app name",
            "GET",
            "/api/v1/executors/bad%20app",
            null,
            400,
            "invalid-field",
            "app"));
    return cases.stream();
  }

  /**
   * Errors no controller answers (#15 item 4): Spring MVC before a handler is found, the path
   * firewall, Tomcat itself. {@code raw}: the request as sent on a socket (HttpClient refuses it).
   */
  record HttpCase(
      String name,
      String method,
      String path,
      Map<String, String> headers,
      String raw,
      int status,
      String code) {

    @Override
    public String toString() {
      return name;
    }
  }

  private static String rawRequest(String requestLine, String... headers) {
    StringBuilder out = new StringBuilder(requestLine).append("\r\n");
    out.append("Host: localhost\r\n");
    out.append("Authorization: Bearer ").append(ADMIN).append("\r\n");
    for (String header : headers) {
      out.append(header).append("\r\n");
    }
    return out.append("Connection: close\r\n\r\n").toString();
  }

  /** A value the answer must not echo: long enough to tell, unique to this run. */
  private static final String ECHO = "echo" + RUN + "z".repeat(20 * 1024);

  static Stream<HttpCase> errorsOutsideControllers() {
    String jobPath = "/api/v1/jobs/" + JOB;
    return Stream.of(
        new HttpCase("PATCH a job", "PATCH", jobPath, Map.of(), null, 405, "method-not-allowed"),
        new HttpCase(
            "PUT to the job list",
            "PUT",
            "/api/v1/jobs",
            Map.of(),
            null,
            405,
            "method-not-allowed"),
        new HttpCase(
            "unknown path under /api",
            "GET",
            "/api/v1/nothing-here",
            Map.of(),
            null,
            404,
            "not-found"),
        new HttpCase(
            "unknown path below a job",
            "POST",
            jobPath + "/explode",
            Map.of(),
            null,
            404,
            "not-found"),
        new HttpCase(
            "actuator endpoint not exposed (env)",
            "GET",
            "/actuator/env",
            Map.of(),
            null,
            404,
            "not-found"),
        new HttpCase(
            "actuator endpoint not exposed (beans)",
            "GET",
            "/actuator/beans",
            Map.of(),
            null,
            404,
            "not-found"),
        new HttpCase(
            "Accept text/html only",
            "GET",
            "/api/v1/jobs",
            Map.of("Accept", "text/html"),
            null,
            406,
            "not-acceptable"),
        new HttpCase(
            "Accept application/xml only on create",
            "POST",
            "/api/v1/jobs",
            Map.of("Accept", "application/xml"),
            null,
            406,
            "not-acceptable"),
        new HttpCase(
            "semicolon in the path (firewall)",
            "GET",
            jobPath + ";x=1",
            Map.of(),
            null,
            400,
            "request-rejected"),
        new HttpCase(
            "double slash in the path (firewall)",
            "GET",
            "/api/v1//jobs",
            Map.of(),
            null,
            400,
            "request-rejected"),
        new HttpCase(
            "encoded slash in the path",
            "GET",
            "/api/v1/jobs/a%2Fb",
            Map.of(),
            null,
            400,
            "request-rejected"),
        new HttpCase(
            "encoded NUL in the path",
            "GET",
            "/api/v1/jobs/a%00b",
            Map.of(),
            null,
            400,
            "request-rejected"),
        new HttpCase(
            "invalid character in the request line",
            null,
            null,
            Map.of(),
            rawRequest("GET /api/v1/jobs/a|" + ECHO + " HTTP/1.1"),
            400,
            "request-rejected"),
        new HttpCase(
            "control character in the request line",
            null,
            null,
            Map.of(),
            rawRequest("GET /api/v1/jobs/a\u0001b HTTP/1.1"),
            400,
            "request-rejected"),
        new HttpCase(
            "20 KB header",
            null,
            null,
            Map.of(),
            rawRequest("GET /api/v1/jobs HTTP/1.1", "X-Big: " + ECHO),
            400,
            "request-rejected"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errorsOutsideControllers")
  void errorsOutsideControllersAreProblemsToo(HttpCase c) {
    RedisSnapshot before = RedisSnapshot.take(redis.sync());
    ApiTestNode.Response response =
        c.raw() != null
            ? node.raw(c.raw())
            : node.call(c.method(), c.path(), null, ADMIN, c.headers());
    assertThat(response.status()).as(c.name() + ": " + response).isEqualTo(c.status());
    assertThat(response.contentType())
        .as(response.toString())
        .startsWith("application/problem+json");
    assertThat(response.json().path("code").asText()).as(response.toString()).isEqualTo(c.code());
    assertThat(response.json().path("type").asText()).isEqualTo("urn:kairos:problem:" + c.code());
    assertThat(response.json().path("status").asInt()).isEqualTo(c.status());
    assertThat(response.body())
        .as("no stack trace, no echo of the request")
        .doesNotContain("Exception", "\tat ", "echo" + RUN, "<html");
    assertThat(response.body().length()).as("error body characters").isLessThan(2_048);
    if (c.status() == 405) {
      assertThat(response.headers().firstValue("Allow")).as("Allow header").isPresent();
    }
    RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, c.name());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInput")
  void badInputIsRejectedNamingTheFieldAndChangesNothing(Case c) {
    RedisSnapshot before = RedisSnapshot.take(redis.sync());
    ApiTestNode.Response response = node.call(c.method(), c.path(), c.body(), ADMIN, c.headers());
    assertThat(response.status()).as(c.name() + ": " + response).isEqualTo(c.status());
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.json().path("code").asText()).as(response.toString()).isEqualTo(c.code());
    assertThat(response.json().path("type").asText()).isEqualTo("urn:kairos:problem:" + c.code());
    assertThat(response.json().path("status").asInt()).isEqualTo(c.status());
    if (c.field() != null) {
      List<String> fields = response.json().path("errors").findValuesAsText("field");
      assertThat(fields).as(response.toString()).contains(c.field());
    }
    RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, c.name());
  }

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"zone", "schedule", "id", "handler"})
  void aHugeValueIsNotEchoedBackWhole(String field) {
    // Issue #15: a 1 MB zone or cron came back as a 2 MB error body.
    String huge = "Z".repeat(100 * 1024);
    RedisSnapshot before = RedisSnapshot.take(redis.sync());
    ApiTestNode.Response response = node.post("/api/v1/jobs", jobWith(field, huge), ADMIN);
    assertThat(response.status()).as(response.toString().substring(0, 200)).isEqualTo(400);
    assertThat(response.json().path("errors").findValuesAsText("field")).contains(field);
    assertThat(response.body().length()).as("error body characters").isLessThan(4_096);
    RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, "huge " + field);
  }

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"/api/v1/jobs", "/api/v1/jobs/" + "{job}", "/api/v1/cluster", "/api/v1/executors"})
  void aViewerMayHeadAndOptionsWhatItMayRead(String template) {
    // Issue #15 item 8: both answered 403 to a viewer.
    String path = template.replace("{job}", JOB);
    RedisSnapshot before = RedisSnapshot.take(redis.sync());
    ApiTestNode.Response head = node.call("HEAD", path, null, VIEWER, Map.of());
    assertThat(head.status()).as("HEAD " + path + ": " + head).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    ApiTestNode.Response options = node.call("OPTIONS", path, null, VIEWER, Map.of());
    assertThat(options.status()).as("OPTIONS " + path + ": " + options).isEqualTo(200);
    assertThat(options.headers().firstValue("Allow"))
        .hasValueSatisfying(allow -> assertThat(allow).contains("GET"));
    ApiTestNode.Response anonymous = node.call("HEAD", path, null, null, Map.of());
    assertThat(anonymous.status()).as("HEAD without a token").isEqualTo(401);
    RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, "HEAD and OPTIONS " + path);
  }

  @org.junit.jupiter.api.Test
  void aNumericScheduleWithSpacesIsStoredTrimmed() {
    // Issue #15 item 8: " 60000 " was stored with its spaces.
    String id = "trim-" + RUN;
    ApiTestNode.Response created =
        node.post(
            "/api/v1/jobs",
            job(Map.of("id", id, "scheduleType", "FIXED_RATE", "schedule", " 60000 ")),
            ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.json().path("schedule").asText()).isEqualTo("60000");
    ApiTestNode.Response updated =
        node.call(
            "PUT",
            "/api/v1/jobs/" + id,
            job(Map.of("id", id, "scheduleType", "ONE_SHOT", "schedule", "\t4102444800000 ")),
            ADMIN,
            Map.of("If-Match", "\"1\""));
    assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
    ApiTestNode.Response read = node.get("/api/v1/jobs/" + id, ADMIN);
    assertThat(read.json().path("schedule").asText()).isEqualTo("4102444800000");
    assertThat(node.call("DELETE", "/api/v1/jobs/" + id, null, ADMIN, Map.of()).status())
        .isEqualTo(204);
  }

  @Test
  void aTokenCreatedAtRuntimeWorksIsListedWithItsLastUseAndIsRefusedOnceRevoked() {
    JsonNode created = createToken("lifecycle-" + RUN, "VIEWER");
    String token = created.path("token").asText();
    JsonNode details = created.path("details");
    String id = details.path("id").asText();
    assertThat(token).startsWith("kairos_");
    assertThat(details.path("createdBy").asText()).isEqualTo("it-admin");
    assertThat(
            Duration.between(
                Instant.parse(details.path("createdAt").asText()),
                Instant.parse(details.path("expiresAt").asText())))
        .as("the default lifetime")
        .isEqualTo(Duration.ofDays(90));
    assertThat(redis.sync().hget(RedisKeys.apiTokens(), ApiTestNode.sha256(token)))
        .as("stored under its hash, without the token")
        .contains(id)
        .doesNotContain(token);

    assertThat(node.get("/api/v1/jobs/" + JOB, token).status()).isEqualTo(200);
    assertThat(node.post("/api/v1/jobs/" + JOB + "/disable", null, token).status()).isEqualTo(403);
    JsonNode listed =
        Poll.until(
            Duration.ofSeconds(10),
            Poll.DEFAULT_STEP,
            "the token listed with its last use",
            () -> listedToken(id),
            t -> t != null && !t.path("lastUsedAt").isNull(),
            "a lastUsedAt");
    assertThat(listed.path("expired").asBoolean()).isFalse();
    ApiTestNode.Response list = node.get("/api/v1/tokens", ADMIN);
    assertThat(list.body()).doesNotContain(token).doesNotContain(ApiTestNode.sha256(token));

    assertThat(node.call("DELETE", "/api/v1/tokens/" + id, null, ADMIN, Map.of()).status())
        .isEqualTo(204);

    ApiTestNode.Response refused = node.get("/api/v1/jobs/" + JOB, token);
    assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
    assertThat(listedToken(id)).isNull();
  }

  @Test
  void aScopedTokenSeesAndChangesOnlyItsApps() {
    String other = "other-" + RUN;
    ApiTestNode.Response created =
        node.post("/api/v1/jobs", job(Map.of("id", other, "app", "other-app")), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    try {
      // Lists: each side sees its own app's job and not the other's, with or without a filter.
      assertThat(node.get("/api/v1/jobs?size=200", operatorIn).body())
          .contains(JOB)
          .doesNotContain(other);
      assertThat(node.get("/api/v1/jobs?size=200", operatorOut).body())
          .contains(other)
          .doesNotContain(JOB);
      assertThat(node.get("/api/v1/jobs?app=other-app", operatorIn).json().path("items").size())
          .isZero();
      assertThat(node.get("/api/v1/jobs?q=" + RUN + "&size=200", operatorIn).body())
          .contains(JOB)
          .doesNotContain(other);
      assertThat(node.get("/api/v1/executors", viewerIn).body())
          .contains("input-app")
          .doesNotContain("other-app");
      assertThat(node.get("/api/v1/job-export", operatorOut).body())
          .contains(other)
          .doesNotContain(JOB);
      // Reads and writes of the other app's job: it does not exist.
      assertThat(node.get("/api/v1/jobs/" + other, operatorIn).status()).isEqualTo(404);
      assertThat(node.post("/api/v1/jobs/" + other + "/disable", null, operatorIn).status())
          .isEqualTo(404);
      // An operator cannot create a job in, or move its job to, an app that is not its own.
      ApiTestNode.Response foreign =
          node.post(
              "/api/v1/jobs", job(Map.of("id", "foreign-" + RUN, "app", "other-app")), operatorIn);
      assertThat(foreign.status()).as(foreign.toString()).isEqualTo(403);
      assertThat(foreign.json().path("errors").findValuesAsText("field")).containsExactly("app");
      long version = node.get("/api/v1/jobs/" + JOB, ADMIN).json().path("version").asLong();
      ApiTestNode.Response moved =
          node.call(
              "PUT",
              "/api/v1/jobs/" + JOB,
              job(Map.of("id", JOB, "app", "other-app")),
              operatorIn,
              Map.of("If-Match", "\"" + version + "\""));
      assertThat(moved.status()).as(moved.toString()).isEqualTo(403);
      assertThat(node.get("/api/v1/jobs/" + JOB, ADMIN).json().path("app").asText())
          .isEqualTo("input-app");
      // History queries: one app of several must be named; another app's does not exist.
      ApiTestNode.Response unnamed = node.get("/api/v1/trigger-search", operatorIn);
      assertThat(unnamed.status()).as(unnamed.toString()).isEqualTo(400);
      assertThat(unnamed.json().path("errors").findValuesAsText("field")).containsExactly("app");
      assertThat(node.get("/api/v1/trigger-search?app=other-app", operatorIn).status())
          .isEqualTo(404);
      assertThat(node.get("/api/v1/jobs/" + other + "/stats", viewerIn).status()).isEqualTo(404);
      // An operator reads its own apps' params whole, as it may replace them.
      assertThat(node.get("/api/v1/jobs/" + JOB, operatorIn).status()).isEqualTo(200);
    } finally {
      node.call("DELETE", "/api/v1/jobs/" + other, null, ADMIN, Map.of());
    }
  }

  private static JsonNode listedToken(String id) {
    for (JsonNode t : node.get("/api/v1/tokens", ADMIN).json().path("items")) {
      if (t.path("id").asText().equals(id)) {
        return t;
      }
    }
    return null;
  }

  /**
   * Who calls: no token, a token nobody configured, a scraper, a viewer, a viewer and a revoked
   * token created at runtime, an admin.
   */
  enum Caller {
    NONE,
    UNKNOWN_TOKEN,
    METRICS_TOKEN,
    VIEWER_TOKEN,
    RUNTIME_VIEWER_TOKEN,
    REVOKED_RUNTIME_TOKEN,
    /** An OPERATOR of input-app and matrix-app, the apps the endpoints touch. */
    OPERATOR_IN_SCOPE,
    /** A VIEWER of input-app only. */
    VIEWER_IN_SCOPE,
    /** An OPERATOR of another app. */
    OPERATOR_OUT_OF_SCOPE,
    /** A VIEWER of another app. */
    VIEWER_OUT_OF_SCOPE,
    ADMIN_TOKEN;

    boolean scoped() {
      return this == OPERATOR_IN_SCOPE
          || this == VIEWER_IN_SCOPE
          || this == OPERATOR_OUT_OF_SCOPE
          || this == VIEWER_OUT_OF_SCOPE;
    }

    String token() {
      return switch (this) {
        case NONE -> null;
        case UNKNOWN_TOKEN -> "not-a-configured-token";
        case METRICS_TOKEN -> ApiTestNode.METRICS;
        case VIEWER_TOKEN -> VIEWER;
        case RUNTIME_VIEWER_TOKEN -> runtimeViewer;
        case REVOKED_RUNTIME_TOKEN -> revokedAdmin;
        case OPERATOR_IN_SCOPE -> operatorIn;
        case VIEWER_IN_SCOPE -> viewerIn;
        case OPERATOR_OUT_OF_SCOPE -> operatorOut;
        case VIEWER_OUT_OF_SCOPE -> viewerOut;
        case ADMIN_TOKEN -> ADMIN;
      };
    }
  }

  /**
   * Every endpoint; {@code access}: OPEN (no token), SCRAPE (metrics or admin), READ (viewer,
   * operator or admin) or WRITE (admin, and an operator of the app where {@code scope} names one);
   * {@code scope}: what app it concerns — APP (the job {@link #JOB} of app input-app, or an app by
   * name), NEW (creates a job of input-app), LIST (every app's, filtered to the caller's), BATCH
   * (ids of input-app's jobs) or CLUSTER (no app: ADMIN-only writes, reads for any reader).
   */
  record Endpoint(String method, String path, String body, String access, String scope) {
    @Override
    public String toString() {
      return method + " " + path;
    }
  }

  static List<Endpoint> endpoints() {
    String job = "/api/v1/jobs/" + JOB;
    String matrixJob = job(Map.of("id", "matrix-" + RUN));
    return List.of(
        new Endpoint("GET", "/api/v1/jobs", null, "READ", "LIST"),
        new Endpoint("POST", "/api/v1/jobs", matrixJob, "WRITE", "NEW"),
        new Endpoint("GET", job, null, "READ", "APP"),
        new Endpoint("PUT", "/api/v1/jobs/matrix-" + RUN, matrixJob, "WRITE", "APP"),
        new Endpoint("POST", job + "/disable", null, "WRITE", "APP"),
        new Endpoint("POST", job + "/enable", null, "WRITE", "APP"),
        new Endpoint("POST", job + "/trigger", "{\"params\":\"matrix\"}", "WRITE", "APP"),
        new Endpoint("POST", job + "/copy", "{\"id\":\"copy-matrix-" + RUN + "\"}", "WRITE", "APP"),
        new Endpoint("GET", job + "/next-fires", null, "READ", "APP"),
        new Endpoint("GET", job + "/triggers", null, "READ", "APP"),
        new Endpoint("GET", job + "/lateness", null, "READ", "APP"),
        new Endpoint("GET", job + "/backfills", null, "READ", "APP"),
        new Endpoint(
            "POST",
            job + "/backfills",
            "{\"from\":\"2026-01-01T00:00:00Z\",\"to\":\"2026-01-01T00:01:00Z\"}",
            "WRITE",
            "APP"),
        new Endpoint("GET", "/api/v1/backfills/" + JOB + "@1-2", null, "READ", "APP"),
        new Endpoint("GET", "/api/v1/workflows", null, "READ", "LIST"),
        new Endpoint("GET", "/api/v1/workflows/export", null, "READ", "LIST"),
        new Endpoint("GET", "/api/v1/workflows/" + WORKFLOW, null, "READ", "APP"),
        new Endpoint("GET", "/api/v1/workflows/" + WORKFLOW + "/runs", null, "READ", "APP"),
        new Endpoint("POST", "/api/v1/workflows/" + WORKFLOW + "/runs", null, "WRITE", "APP"),
        new Endpoint(
            "POST",
            "/api/v1/schedules/preview",
            "{\"scheduleType\":\"CRON\",\"schedule\":\"* * * * * *\"}",
            "READ",
            "CLUSTER"),
        new Endpoint(
            "POST", "/api/v1/job-batches/enable", "{\"ids\":[\"" + JOB + "\"]}", "WRITE", "BATCH"),
        new Endpoint(
            "POST", "/api/v1/job-batches/disable", "{\"ids\":[\"" + JOB + "\"]}", "WRITE", "BATCH"),
        new Endpoint(
            "POST",
            "/api/v1/job-batches/delete",
            "{\"ids\":[\"gone-" + RUN + "\"]}",
            "WRITE",
            "BATCH"),
        new Endpoint("GET", "/api/v1/job-export", null, "READ", "LIST"),
        new Endpoint(
            "POST",
            "/api/v1/job-import?dryRun=true",
            "{\"formatVersion\":1,\"jobs\":[" + matrixJob + "]}",
            "WRITE",
            "NEW"),
        new Endpoint("GET", "/api/v1/triggers/" + JOB + ":1", null, "READ", "APP"),
        new Endpoint("GET", "/api/v1/executors", null, "READ", "LIST"),
        new Endpoint("GET", "/api/v1/executors/input-app", null, "READ", "APP"),
        new Endpoint("GET", "/api/v1/apps/input-app", null, "READ", "APP"),
        new Endpoint("PUT", "/api/v1/apps/matrix-app", "{\"description\":\"m\"}", "WRITE", "APP"),
        new Endpoint("GET", "/api/v1/cluster", null, "READ", "CLUSTER"),
        // Calendars are cluster-wide: every role reads them, only an admin writes them.
        new Endpoint("GET", "/api/v1/calendars", null, "READ", "CLUSTER"),
        new Endpoint("GET", "/api/v1/calendars/matrix-" + RUN, null, "READ", "CLUSTER"),
        new Endpoint(
            "PUT",
            "/api/v1/calendars/matrix-" + RUN,
            "{\"weekdays\":[\"SUNDAY\"]}",
            "WRITE",
            "CLUSTER"),
        new Endpoint("DELETE", "/api/v1/calendars/matrix-" + RUN, null, "WRITE", "CLUSTER"),
        new Endpoint("POST", "/api/v1/triggers/" + JOB + ":1/cancel", null, "WRITE", "APP"),
        new Endpoint("GET", "/api/v1/cluster/pause", null, "READ", "CLUSTER"),
        // Pause before resume, so the matrix leaves the cluster running.
        new Endpoint("POST", "/api/v1/cluster/pause", null, "WRITE", "CLUSTER"),
        new Endpoint("POST", "/api/v1/cluster/resume", null, "WRITE", "CLUSTER"),
        new Endpoint("POST", "/api/v1/admin/rebuild", null, "WRITE", "CLUSTER"),
        // Tokens are admin-only, listing included.
        new Endpoint("GET", "/api/v1/tokens", null, "WRITE", "CLUSTER"),
        new Endpoint(
            "POST",
            "/api/v1/tokens",
            "{\"name\":\"matrix\",\"owner\":\"it\",\"role\":\"VIEWER\"}",
            "WRITE",
            "CLUSTER"),
        new Endpoint("DELETE", "/api/v1/tokens/tok_0000000000000000", null, "WRITE", "CLUSTER"),
        new Endpoint("GET", "/api/v1/users", null, "WRITE", "CLUSTER"),
        new Endpoint(
            "POST",
            "/api/v1/users",
            "{\"username\":\"matrix-"
                + RUN
                + "\",\"password\":\"a long passphrase\","
                + "\"role\":\"VIEWER\"}",
            "WRITE",
            "CLUSTER"),
        new Endpoint(
            "PUT",
            "/api/v1/users/nobody/password",
            "{\"password\":\"a long passphrase\"}",
            "WRITE",
            "CLUSTER"),
        new Endpoint("DELETE", "/api/v1/users/nobody", null, "WRITE", "CLUSTER"),
        // The audit trail holds params whole: admins only, reads included.
        new Endpoint("GET", "/api/v1/audit", null, "WRITE", "CLUSTER"),
        new Endpoint("DELETE", "/api/v1/jobs/matrix-" + RUN, null, "WRITE", "APP"),
        new Endpoint("GET", "/actuator/prometheus", null, "SCRAPE", "CLUSTER"),
        new Endpoint("GET", "/actuator/metrics", null, "WRITE", "CLUSTER"),
        new Endpoint("GET", "/actuator/info", null, "WRITE", "CLUSTER"),
        // Not exposed: an admin gets 404 (errorsOutsideControllers), others as for the exposed.
        new Endpoint("GET", "/actuator/env", null, "WRITE", "CLUSTER"),
        new Endpoint("GET", "/actuator/health", null, "OPEN", "CLUSTER"),
        new Endpoint("GET", "/v3/api-docs", null, "OPEN", "CLUSTER"));
  }

  static Stream<Arguments> authMatrix() {
    List<Arguments> cases = new ArrayList<>();
    for (Endpoint endpoint : endpoints()) {
      for (Caller caller : Caller.values()) {
        cases.add(Arguments.of(endpoint, caller));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("authMatrix")
  void everyEndpointAnswersEachCallerByRole(Endpoint endpoint, Caller caller) {
    RedisSnapshot before = RedisSnapshot.take(redis.sync());
    ApiTestNode.Response response =
        node.call(endpoint.method(), endpoint.path(), endpoint.body(), caller.token(), Map.of());
    String what = endpoint + " as " + caller;
    boolean open = endpoint.access().equals("OPEN");
    boolean unauthenticated =
        !open
            && (caller == Caller.NONE
                || caller == Caller.UNKNOWN_TOKEN
                || caller == Caller.REVOKED_RUNTIME_TOKEN);
    String access = endpoint.access();
    String scope = endpoint.scope();
    boolean outOfScope =
        caller == Caller.OPERATOR_OUT_OF_SCOPE || caller == Caller.VIEWER_OUT_OF_SCOPE;
    boolean forbidden =
        !open
            && switch (caller) {
              case VIEWER_TOKEN, RUNTIME_VIEWER_TOKEN, VIEWER_IN_SCOPE, VIEWER_OUT_OF_SCOPE ->
                  access.equals("WRITE") || access.equals("SCRAPE");
              case OPERATOR_IN_SCOPE, OPERATOR_OUT_OF_SCOPE ->
                  access.equals("SCRAPE")
                      || (access.equals("WRITE") && scope.equals("CLUSTER"))
                      || (access.equals("WRITE") && scope.equals("NEW") && outOfScope);
              case METRICS_TOKEN -> !access.equals("SCRAPE");
              default -> false;
            };
    if (unauthenticated || forbidden) {
      int status = unauthenticated ? 401 : 403;
      String code = unauthenticated ? "unauthenticated" : "forbidden";
      assertThat(response.status()).as(what + ": " + response).isEqualTo(status);
      assertThat(response.contentType()).startsWith("application/problem+json");
      assertThat(response.json().path("code").asText()).isEqualTo(code);
      if (unauthenticated) {
        assertThat(response.headers().firstValue("WWW-Authenticate"))
            .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      }
      RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, what);
    } else if (outOfScope && scope.equals("APP")) {
      // Another team's job, trigger or app does not exist for this caller.
      assertThat(response.status()).as(what + ": " + response).isEqualTo(404);
      assertThat(response.contentType()).startsWith("application/problem+json");
      RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, what);
    } else if (outOfScope && scope.equals("LIST")) {
      assertThat(response.status()).as(what + ": " + response).isEqualTo(200);
      assertThat(response.body()).as(what).doesNotContain("input-app").doesNotContain(JOB);
    } else if (outOfScope && scope.equals("BATCH")) {
      assertThat(response.status()).as(what + ": " + response).isEqualTo(200);
      assertThat(response.json().path("succeeded").asInt()).as(what + ": " + response).isZero();
      RedisSnapshot.take(redis.sync()).assertUnchangedSince(before, what);
    } else {
      assertThat(response.status()).as(what + ": " + response).isNotIn(401, 403, 500);
    }
  }
}
