package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.secret.SecretParamsCipher;
import dev.kairos.core.secret.SecretParamsKey;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The audit trail end to end on a node with real Redis and PostgreSQL: writes through the API land
 * in {@code GET /api/v1/audit} (via the Redis stream and the node's audit consumer) with their
 * actor, versions, definitions and diff; the trail is for admins; a refused write records nothing;
 * the filters, the cursor and bad parameters; the console page. The node's history sync is off, so
 * the audit side migrates the schema itself.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class AuditLogIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String JOB = "audit-" + RUN;
  private static final String APP = "audit-app-" + RUN;
  private static final String OPS = "audit-ops-" + RUN;
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String PARAMS_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

  private static ApiTestNode node;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "audit-" + RUN);
    overrides.put("kairos.fire.enabled", "false");
    overrides.put("kairos.cluster.leadership.enabled", "false");
    overrides.put("kairos.sync.enabled", "false");
    overrides.put("kairos.lifecycle.enabled", "false");
    overrides.put("kairos.audit.poll-interval", "100ms");
    overrides.put("kairos.params-encryption.key", PARAMS_KEY);
    node = ApiTestNode.start(infra, overrides);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.post("/api/v1/cluster/resume", null, ADMIN);
      node.close();
    }
  }

  private static String scriptJob(String cron, String script) {
    return ApiTestNode.json(
        Map.of(
            "id",
            JOB,
            "app",
            APP,
            "handler",
            "kairos.script",
            "scheduleType",
            "CRON",
            "schedule",
            cron,
            "params",
            "{\"interpreter\":\"bash\",\"script\":\"" + script + "\"}"));
  }

  @Test
  void secretParamsAreSealedAtRestOpenedForWritersAndMaskedForViewers() {
    String job = "sealed-" + RUN;
    String params =
        "{\"url\":\"https://api.example.com/hook\",\"headers\":{\"Authorization\":\"Bearer"
            + " t0p-s3cret\"}}";
    String body =
        ApiTestNode.json(
            Map.of(
                "id",
                job,
                "app",
                APP,
                "handler",
                "kairos.http",
                "scheduleType",
                "CRON",
                "schedule",
                "0 0 3 * * *",
                "params",
                params));
    ApiTestNode.Response created = node.post("/api/v1/jobs", body, ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);

    // At rest: Redis holds the header sealed, the rest as written.
    KairosRedis redis = node.context().getBean(KairosRedis.class);
    RedisKeys keys = node.context().getBean(RedisKeys.class);
    String stored = redis.sync().hget(RedisKeys.job(keys.shardOf(job), job), "params");
    assertThat(stored)
        .doesNotContain("t0p-s3cret")
        .contains("https://api.example.com/hook")
        .contains(SecretParamsCipher.PREFIX);

    // A writer reads (and exports) them whole; a viewer reads the header masked.
    assertThat(created.json().path("params").asText()).isEqualTo(params);
    assertThat(node.get("/api/v1/jobs/" + job, ADMIN).json().path("params").asText())
        .isEqualTo(params);
    assertThat(node.get("/api/v1/jobs/" + job, VIEWER).json().path("params").asText())
        .doesNotContain("t0p-s3cret", SecretParamsCipher.PREFIX)
        .contains("\"Authorization\":\"***\"");
    ApiTestNode.Response export = node.get("/api/v1/job-export?idPrefix=" + job, ADMIN);
    assertThat(export.status()).as(export.toString()).isEqualTo(200);
    assertThat(export.json().path("jobs").get(0).path("params").asText()).isEqualTo(params);

    // Importing what was exported changes nothing: sealing is deterministic.
    ApiTestNode.Response imported = node.post("/api/v1/job-import", export.body(), ADMIN);
    assertThat(imported.status()).as(imported.toString()).isEqualTo(200);
    assertThat(imported.json().path("unchanged").asInt()).as(imported.toString()).isEqualTo(1);
    assertThat(redis.sync().hget(RedisKeys.job(keys.shardOf(job), job), "params"))
        .isEqualTo(stored);

    // The audit trail (Redis stream, then PostgreSQL) holds the definition as stored: sealed.
    List<JsonNode> entries =
        Poll.until(
            DEADLINE,
            Duration.ofMillis(200),
            "the sealed job's creation in the audit log",
            () -> items(node.get("/api/v1/audit?jobId=" + job, ADMIN)),
            list -> !list.isEmpty(),
            "an entry");
    assertThat(entries.get(0).path("jobAfter").path("params").asText())
        .doesNotContain("t0p-s3cret")
        .contains(SecretParamsCipher.PREFIX);
    // A copy gets the secrets sealed for its own id (a sealed value opens only for its job).
    ApiTestNode.Response copy =
        node.post("/api/v1/jobs/" + job + "/copy", "{\"id\":\"" + job + "-copy\"}", ADMIN);
    assertThat(copy.status()).as(copy.toString()).isEqualTo(201);
    assertThat(copy.json().path("params").asText()).isEqualTo(params);
    String copyStored =
        redis.sync().hget(RedisKeys.job(keys.shardOf(job + "-copy"), job + "-copy"), "params");
    assertThat(copyStored).doesNotContain("t0p-s3cret").isNotEqualTo(stored);
    assertThat(
            SecretParamsCipher.openingWith(List.of(SecretParamsKey.parse(PARAMS_KEY)))
                .open(job + "-copy", copyStored))
        .isEqualTo(params);
    for (String id : List.of(job, job + "-copy")) {
      assertThat(node.call("DELETE", "/api/v1/jobs/" + id, null, ADMIN, Map.of()).status())
          .isEqualTo(204);
    }
  }

  @Test
  void everyWriteIsInTheAuditLogWithItsActorVersionsAndDiff() {
    long startMs = System.currentTimeMillis();
    // A runtime ADMIN token: its name and id are the actor of the trigger below.
    ApiTestNode.Response token =
        node.post(
            "/api/v1/tokens",
            "{\"name\":\"" + OPS + "\",\"owner\":\"ops@example.com\",\"role\":\"ADMIN\"}",
            ADMIN);
    assertThat(token.status()).as(token.toString()).isEqualTo(201);
    String opsToken = token.json().path("token").asText();
    String opsId = token.json().path("details").path("id").asText();

    assertThat(node.post("/api/v1/jobs", scriptJob("0 0 3 * * *", "echo hi"), ADMIN).status())
        .isEqualTo(201);
    ApiTestNode.Response updated =
        node.call(
            "PUT",
            "/api/v1/jobs/" + JOB,
            scriptJob("0 30 4 * * *", "echo bye"),
            ADMIN,
            Map.of("If-Match", "\"1\""));
    assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
    ApiTestNode.Response triggered = node.post("/api/v1/jobs/" + JOB + "/trigger", null, opsToken);
    assertThat(triggered.status()).as(triggered.toString()).isEqualTo(202);
    String triggerId = triggered.json().path("triggerId").asText();
    assertThat(node.post("/api/v1/jobs/" + JOB + "/disable", null, ADMIN).status()).isEqualTo(200);
    // Refused: a viewer may not write, and a refused write records nothing.
    assertThat(node.post("/api/v1/jobs/" + JOB + "/enable", null, VIEWER).status()).isEqualTo(403);
    assertThat(node.post("/api/v1/jobs/" + JOB + "/enable", null, ADMIN).status()).isEqualTo(200);
    ApiTestNode.Response app =
        node.call("PUT", "/api/v1/apps/" + APP, "{\"description\":\"audited\"}", ADMIN, Map.of());
    assertThat(app.status()).as(app.toString()).isEqualTo(200);
    assertThat(node.call("DELETE", "/api/v1/jobs/" + JOB, null, ADMIN, Map.of()).status())
        .isEqualTo(204);
    try {
      assertThat(node.post("/api/v1/cluster/pause", null, ADMIN).status()).isEqualTo(200);
    } finally {
      assertThat(node.post("/api/v1/cluster/resume", null, ADMIN).status()).isEqualTo(200);
    }

    // The stream reaches PostgreSQL in order, so once the deletion is there, all before it is.
    List<JsonNode> entries =
        Poll.until(
            DEADLINE,
            Duration.ofMillis(200),
            "the job's deletion in the audit log",
            () -> items(node.get("/api/v1/audit?jobId=" + JOB, ADMIN)),
            list -> !list.isEmpty() && list.get(0).path("action").asText().equals("JOB_DELETED"),
            "JOB_DELETED first");
    assertThat(entries.stream().map(e -> e.path("action").asText()))
        .as("newest first, one entry per write, none for the refused one")
        .containsExactly(
            "JOB_DELETED",
            "JOB_ENABLED",
            "JOB_DISABLED",
            "JOB_TRIGGERED",
            "JOB_UPDATED",
            "JOB_CREATED");
    for (JsonNode e : entries) {
      assertThat(e.path("app").asText()).isEqualTo(APP);
      assertThat(e.path("jobId").asText()).isEqualTo(JOB);
      assertThat(e.path("id").asText()).matches("\\d+-\\d+");
      assertThat(e.path("atMs").asLong()).isGreaterThanOrEqualTo(startMs - 60_000);
    }
    JsonNode deleted = entries.get(0);
    JsonNode enabled = entries.get(1);
    JsonNode disabled = entries.get(2);
    JsonNode trigger = entries.get(3);
    JsonNode update = entries.get(4);
    JsonNode create = entries.get(5);

    assertThat(create.path("actor").asText()).isEqualTo("it-admin");
    assertThat(create.path("actorSource").asText()).isEqualTo("config");
    assertThat(create.path("versionBefore").isNull()).isTrue();
    assertThat(create.path("versionAfter").asLong()).isEqualTo(1);
    assertThat(create.path("jobAfter").path("schedule").asText()).isEqualTo("0 0 3 * * *");
    assertThat(create.path("scriptSha256").asText()).isEqualTo(sha256("echo hi"));

    assertThat(update.path("versionBefore").asLong()).isEqualTo(1);
    assertThat(update.path("versionAfter").asLong()).isEqualTo(2);
    assertThat(fields(update)).containsExactlyInAnyOrder("schedule", "params");
    for (JsonNode change : update.path("diff")) {
      if (change.path("field").asText().equals("schedule")) {
        assertThat(change.path("before").asText()).isEqualTo("0 0 3 * * *");
        assertThat(change.path("after").asText()).isEqualTo("0 30 4 * * *");
      }
    }
    assertThat(update.path("jobBefore").path("params").asText()).contains("echo hi");
    assertThat(update.path("jobAfter").path("params").asText()).contains("echo bye");
    assertThat(update.path("scriptSha256").asText()).isEqualTo(sha256("echo bye"));

    assertThat(trigger.path("triggerId").asText()).isEqualTo(triggerId);
    assertThat(trigger.path("actor").asText()).isEqualTo(OPS);
    assertThat(trigger.path("actorSource").asText()).isEqualTo(opsId);

    assertThat(disabled.path("versionBefore").asLong()).isEqualTo(2);
    assertThat(disabled.path("versionAfter").asLong()).isEqualTo(3);
    assertThat(fields(disabled)).containsExactly("enabled");
    assertThat(enabled.path("versionBefore").asLong()).isEqualTo(3);
    assertThat(enabled.path("versionAfter").asLong()).isEqualTo(4);
    assertThat(fields(enabled)).containsExactly("enabled");
    assertThat(deleted.path("versionBefore").asLong()).isEqualTo(4);
    assertThat(deleted.path("versionAfter").isNull()).isTrue();
    assertThat(deleted.path("jobAfter").isNull()).isTrue();

    // Filters: by app (the app settings too), by actor, combined.
    List<JsonNode> byApp = items(node.get("/api/v1/audit?app=" + APP, ADMIN));
    assertThat(byApp.stream().map(e -> e.path("action").asText()))
        .containsExactly(
            "JOB_DELETED",
            "APP_SETTINGS_WRITTEN",
            "JOB_ENABLED",
            "JOB_DISABLED",
            "JOB_TRIGGERED",
            "JOB_UPDATED",
            "JOB_CREATED");
    List<JsonNode> byOps = items(node.get("/api/v1/audit?actor=" + OPS, ADMIN));
    assertThat(byOps.stream().map(e -> e.path("action").asText())).containsExactly("JOB_TRIGGERED");
    assertThat(items(node.get("/api/v1/audit?actor=it-viewer&jobId=" + JOB, ADMIN))).isEmpty();

    // Cluster and token entries of this run (other classes share the database: from bounds it).
    String since = Long.toString(startMs - 60_000);
    List<JsonNode> admin =
        Poll.until(
            DEADLINE,
            Duration.ofMillis(200),
            "the resume in the audit log",
            () -> items(node.get("/api/v1/audit?actor=it-admin&limit=500&from=" + since, ADMIN)),
            list -> actions(list).contains("CLUSTER_RESUMED"),
            "CLUSTER_RESUMED");
    assertThat(actions(admin)).contains("CLUSTER_PAUSED", "CLUSTER_RESUMED", "TOKEN_CREATED");
    assertThat(
            admin.stream()
                .filter(e -> e.path("action").asText().equals("TOKEN_CREATED"))
                .map(e -> e.path("detail").asText()))
        .anySatisfy(d -> assertThat(d).contains(opsId).contains(OPS).doesNotContain(opsToken));

    // A page at a time by cursor: two, then the next two, no overlap.
    ApiTestNode.Response first = node.get("/api/v1/audit?limit=2&jobId=" + JOB, ADMIN);
    assertThat(items(first)).hasSize(2);
    String cursor = first.json().path("nextCursor").asText();
    assertThat(cursor).isNotEmpty();
    List<JsonNode> second =
        items(
            node.get(
                "/api/v1/audit?limit=2&jobId="
                    + JOB
                    + "&cursor="
                    + URLEncoder.encode(cursor, StandardCharsets.UTF_8),
                ADMIN));
    assertThat(actions(second)).containsExactly("JOB_DISABLED", "JOB_TRIGGERED");
  }

  @Test
  void aBatchAndAnImportRecordOneEntryPerJobTheyChanged() {
    String app = APP + "-batch";
    List<String> ids = List.of("audit-b1-" + RUN, "audit-b2-" + RUN);
    for (String id : ids) {
      String body =
          ApiTestNode.json(
              Map.of(
                  "id",
                  id,
                  "app",
                  app,
                  "handler",
                  "report",
                  "scheduleType",
                  "CRON",
                  "schedule",
                  "0 0 3 * * *"));
      assertThat(node.post("/api/v1/jobs", body, ADMIN).status()).isEqualTo(201);
    }
    String batch = "{\"ids\":[\"" + ids.get(0) + "\",\"" + ids.get(1) + "\",\"gone-" + RUN + "\"]}";
    ApiTestNode.Response disabled = node.post("/api/v1/job-batches/disable", batch, ADMIN);
    assertThat(disabled.status()).as(disabled.toString()).isEqualTo(200);
    // Export the app's jobs, change one's schedule, import: one entry, for the changed job.
    String export = node.get("/api/v1/job-export?app=" + app, ADMIN).body();
    String changed = export.replaceFirst("0 0 3 \\* \\* \\*", "0 0 5 * * *");
    ApiTestNode.Response imported = node.post("/api/v1/job-import", changed, ADMIN);
    assertThat(imported.status()).as(imported.toString()).isEqualTo(200);
    assertThat(imported.json().path("updated").asInt()).isEqualTo(1);

    List<JsonNode> entries =
        Poll.until(
            DEADLINE,
            Duration.ofMillis(200),
            "the import in the audit log",
            () -> items(node.get("/api/v1/audit?app=" + app, ADMIN)),
            list -> actions(list).contains("JOB_IMPORTED"),
            "JOB_IMPORTED");
    assertThat(actions(entries))
        .as("one entry per job changed; none for an unknown id or an unchanged import")
        .containsExactly(
            "JOB_IMPORTED", "JOB_DISABLED", "JOB_DISABLED", "JOB_CREATED", "JOB_CREATED");
    JsonNode importEntry = entries.get(0);
    assertThat(importEntry.path("jobId").asText()).isEqualTo(ids.get(0));
    assertThat(fields(importEntry)).containsExactly("schedule");
    assertThat(importEntry.path("versionAfter").asLong())
        .isEqualTo(importEntry.path("versionBefore").asLong() + 1);
    for (JsonNode e : entries.subList(1, 3)) {
      assertThat(e.path("detail").asText()).isEqualTo("batch disable");
      assertThat(fields(e)).containsExactly("enabled");
    }
  }

  @Test
  void theAuditLogIsForAdminsAndNamesABadParameter() {
    ApiTestNode.Response viewer = node.get("/api/v1/audit", VIEWER);
    assertThat(viewer.status()).as(viewer.toString()).isEqualTo(403);
    assertThat(viewer.json().path("code").asText()).isEqualTo("forbidden");
    assertBad("/api/v1/audit?from=yesterday", "from");
    assertBad("/api/v1/audit?from=2000&to=1000", "to");
    assertBad("/api/v1/audit?limit=0", "limit");
    assertBad("/api/v1/audit?cursor=not-a-cursor", "cursor");
    assertBad("/api/v1/audit?jobId=bad%20id", "jobId");
    assertBad("/api/v1/audit?app=bad%20app", "app");
  }

  @Test
  void theConsoleShowsTheAuditLogToAnAdmin() {
    String job = "audit-console-" + RUN;
    String body =
        ApiTestNode.json(
            Map.of(
                "id",
                job,
                "app",
                APP + "-console",
                "handler",
                "report",
                "scheduleType",
                "CRON",
                "schedule",
                "0 0 3 * * *"));
    assertThat(node.post("/api/v1/jobs", body, ADMIN).status()).isEqualTo(201);
    assertThat(node.post("/api/v1/jobs/" + job + "/disable", null, ADMIN).status()).isEqualTo(200);
    ConsoleSession admin = ConsoleSession.signIn(node, ADMIN);
    String html =
        Poll.until(
            DEADLINE,
            Duration.ofMillis(200),
            "the console's audit page shows the disable",
            () -> admin.get("/console/audit?jobId=" + job).html(),
            page -> page.contains("JOB_DISABLED"),
            "JOB_DISABLED on the page");
    assertThat(html).contains("JOB_CREATED").contains("it-admin").contains("audit-field");
    assertThat(html).contains("id=\"nav-audit\"");
    ConsoleSession viewer = ConsoleSession.signIn(node, VIEWER);
    assertThat(viewer.get("/console/audit").status()).as("admins only").isEqualTo(403);
    assertThat(viewer.get("/console/jobs").html()).doesNotContain("id=\"nav-audit\"");
  }

  private static void assertBad(String path, String field) {
    ApiTestNode.Response bad = node.get(path, ADMIN);
    assertThat(bad.status()).as(path + ": " + bad).isEqualTo(400);
    assertThat(bad.contentType()).startsWith("application/problem+json");
    assertThat(bad.json().path("errors").findValuesAsText("field")).as(path).contains(field);
  }

  private static List<JsonNode> items(ApiTestNode.Response response) {
    assertThat(response.status()).as(response.toString()).isEqualTo(200);
    List<JsonNode> items = new ArrayList<>();
    response.json().path("items").forEach(items::add);
    return items;
  }

  private static List<String> actions(List<JsonNode> entries) {
    return entries.stream().map(e -> e.path("action").asText()).toList();
  }

  private static List<String> fields(JsonNode entry) {
    List<String> names = new ArrayList<>();
    entry.path("diff").forEach(c -> names.add(c.path("field").asText()));
    return names;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
