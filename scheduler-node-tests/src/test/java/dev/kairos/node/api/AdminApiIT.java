package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.mq.slot.SlotLeaseConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin API's happy paths and domain errors against a full node (leader, wheel, fire path,
 * persistence-sync) on real Redis, ZooKeeper, RocketMQ and PostgreSQL.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class AdminApiIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String NODE = "api-it-" + RUN;
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static ApiTestNode node;
  private static EmbeddedInfrastructure infra;

  @BeforeAll
  static void startNode(EmbeddedInfrastructure shared) {
    infra = shared;
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", NODE);
    overrides.put("kairos.zookeeper.root-path", "/kairos-api-it-" + RUN);
    overrides.put("kairos.cluster.secret", "api-it-secret");
    node = ApiTestNode.start(shared, overrides);
  }

  @AfterAll
  static void stopNode() {
    if (node != null) {
      node.close();
    }
  }

  private static String id(String name) {
    return name + "-" + RUN;
  }

  private static String cronJob(String id, String app, String cron) {
    return ApiTestNode.json(
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
            cron,
            "zone",
            "Europe/Berlin"));
  }

  /**
   * A create whose script Redis runs only after the node's command timeout (2 s) answers 503, and
   * the answer does not claim that nothing changed: the job exists once Redis catches up.
   */
  @Test
  void aWriteThatTimesOutSaysItMayHaveBeenApplied() throws Exception {
    String id = id("paused");
    ApiTestNode.Response created;
    try (KairosRedis admin =
        KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(5))) {
      // Every client's commands wait 4 s on the server: the node's script runs after its timeout.
      assertThat(admin.sync().clientPause(4_000)).isEqualTo("OK");
      // With its routing given, the create is the one script: no app-default read before it.
      created =
          node.post(
              "/api/v1/jobs",
              ApiTestNode.json(
                  Map.of(
                      "id", id,
                      "app", "paused-" + RUN,
                      "handler", "report",
                      "scheduleType", "CRON",
                      "schedule", "0 0 3 * * *",
                      "routing", "ROUND")),
              ADMIN);
    }
    assertThat(created.status()).as(created.toString()).isEqualTo(503);
    assertThat(created.json().path("code").asText()).isEqualTo("redis-unavailable");
    assertThat(created.json().path("detail").asText())
        .contains("part of the change may have been applied")
        .doesNotContain("nothing was changed");
    JsonNode job =
        poll(
            "the timed-out create applied once the pause ends",
            () -> node.get("/api/v1/jobs/" + id, VIEWER),
            r -> r.status() == 200);
    assertThat(job.path("id").asText()).isEqualTo(id);
    node.call("DELETE", "/api/v1/jobs/" + id, null, ADMIN, Map.of());
  }

  @Test
  void quartzCronKeepsItsDialectThroughReadPreviewAndExport() {
    String id = id("quartz");
    String app = "xxl-" + RUN;
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", id);
    job.put("app", app);
    job.put("handler", "report");
    job.put("scheduleType", "CRON");
    // As xxl-job reads it: 09:00 every Sunday (day-of-week 1).
    job.put("schedule", "0 0 9 ? * 1");
    job.put("cronDialect", "QUARTZ");
    job.put("zone", "Asia/Shanghai");
    ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.json().path("cronDialect").asText()).isEqualTo("QUARTZ");

    ApiTestNode.Response read = node.get("/api/v1/jobs/" + id, VIEWER);
    assertThat(read.json().path("cronDialect").asText()).isEqualTo("QUARTZ");
    ApiTestNode.Response fires = node.get("/api/v1/jobs/" + id + "/next-fires?count=3", VIEWER);
    assertThat(fires.status()).as(fires.toString()).isEqualTo(200);
    assertThat(fires.json().path("cronDialect").asText()).isEqualTo("QUARTZ");
    for (JsonNode fire : fires.json().path("fires")) {
      assertThat(java.time.OffsetDateTime.parse(fire.path("time").asText()).getDayOfWeek())
          .isEqualTo(java.time.DayOfWeek.SUNDAY);
    }
    ApiTestNode.Response export = node.get("/api/v1/job-export?app=" + app, VIEWER);
    assertThat(export.json().at("/jobs/0/cronDialect").asText()).isEqualTo("QUARTZ");

    // A job that names no dialect keeps today's: the same text means Monday there.
    job.put("id", id + "-k");
    job.put("schedule", "0 0 9 * * 1");
    job.remove("cronDialect");
    ApiTestNode.Response kairos = node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN);
    assertThat(kairos.json().path("cronDialect").asText()).isEqualTo("KAIROS");
    ApiTestNode.Response monday = node.get("/api/v1/jobs/" + id + "-k/next-fires?count=1", VIEWER);
    assertThat(
            java.time.OffsetDateTime.parse(monday.json().at("/fires/0/time").asText())
                .getDayOfWeek())
        .isEqualTo(java.time.DayOfWeek.MONDAY);
  }

  @Test
  void jobLifecycleCreateReadUpdateDisableEnableDelete() {
    String id = id("life");
    ApiTestNode.Response created =
        node.post("/api/v1/jobs", cronJob(id, "billing-" + RUN, "0 0 3 * * *"), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.headers().firstValue("Location")).hasValue("/api/v1/jobs/" + id);
    assertThat(created.headers().firstValue("ETag")).hasValue("\"1\"");
    assertThat(created.json().path("version").asLong()).isEqualTo(1);
    assertThat(created.json().path("nextFireMs").asLong()).isPositive();
    assertThat(created.json().at("/warnings/0/code").asText()).isEqualTo("no-live-executor");

    ApiTestNode.Response read = node.get("/api/v1/jobs/" + id, VIEWER);
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json().path("schedule").asText()).isEqualTo("0 0 3 * * *");
    assertThat(read.json().path("zone").asText()).isEqualTo("Europe/Berlin");
    assertThat(read.json().has("warnings")).isFalse();

    String changed = cronJob(id, "billing-" + RUN, "0 30 4 * * *");
    ApiTestNode.Response updated =
        node.call("PUT", "/api/v1/jobs/" + id, changed, ADMIN, Map.of("If-Match", "\"1\""));
    assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
    assertThat(updated.json().path("version").asLong()).isEqualTo(2);
    assertThat(updated.json().path("schedule").asText()).isEqualTo("0 30 4 * * *");

    ApiTestNode.Response stale =
        node.call("PUT", "/api/v1/jobs/" + id, changed, ADMIN, Map.of("If-Match", "\"1\""));
    assertThat(stale.status()).isEqualTo(409);
    assertThat(stale.json().path("code").asText()).isEqualTo("version-conflict");
    assertThat(stale.json().path("currentVersion").asLong()).isEqualTo(2);

    ApiTestNode.Response blind = node.call("PUT", "/api/v1/jobs/" + id, changed, ADMIN, Map.of());
    assertThat(blind.status()).isEqualTo(428);
    assertThat(blind.json().at("/errors/0/field").asText()).isEqualTo("If-Match");

    ApiTestNode.Response disabled = node.post("/api/v1/jobs/" + id + "/disable", null, ADMIN);
    assertThat(disabled.status()).isEqualTo(200);
    assertThat(disabled.json().path("enabled").asBoolean()).isFalse();
    assertThat(disabled.json().has("nextFireMs")).as("a disabled job has no next fire").isFalse();

    ApiTestNode.Response enabled = node.post("/api/v1/jobs/" + id + "/enable", null, ADMIN);
    assertThat(enabled.status()).isEqualTo(200);
    assertThat(enabled.json().path("enabled").asBoolean()).isTrue();
    assertThat(enabled.json().path("nextFireMs").asLong()).isPositive();
    long version = enabled.json().path("version").asLong();

    ApiTestNode.Response wrongDelete =
        node.call("DELETE", "/api/v1/jobs/" + id, null, ADMIN, Map.of("If-Match", "\"1\""));
    assertThat(wrongDelete.status()).isEqualTo(409);
    ApiTestNode.Response deleted =
        node.call(
            "DELETE", "/api/v1/jobs/" + id, null, ADMIN, Map.of("If-Match", "\"" + version + "\""));
    assertThat(deleted.status()).isEqualTo(204);
    ApiTestNode.Response gone = node.get("/api/v1/jobs/" + id, ADMIN);
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.contentType()).startsWith("application/problem+json");
    assertThat(gone.json().path("code").asText()).isEqualTo("job-not-found");
    assertThat(gone.json().path("type").asText()).isEqualTo("urn:kairos:problem:job-not-found");
  }

  @Test
  void descriptionOwnerAndAlarmRecipientsFlowThroughCreateReadListUpdateAndExport() {
    String id = id("features");
    String app = "features-" + RUN;
    Map<String, Object> job = jobMap(id, app, "CRON", "0 0 3 * * *", "UTC", true);
    job.put("description", "Nightly ledger export.\nPage the owner when it fails.");
    job.put("owner", "Zoë <ledger-" + RUN + ">");
    job.put("alarmEmails", List.of(" ledger@example.com", "oncall+ledger@example.org"));
    job.put("alarmWebhooks", List.of("https://hooks.example.com/T0/B0/x?tags=a,b"));
    ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);

    for (JsonNode shown :
        List.of(
            created.json(),
            node.get("/api/v1/jobs/" + id, VIEWER).json(),
            node.get("/api/v1/jobs?q=LEDGER-" + RUN, VIEWER).json().at("/items/0"),
            node.get("/api/v1/job-export?app=" + app, VIEWER).json().at("/jobs/0"))) {
      assertThat(shown.path("id").asText()).isEqualTo(id);
      assertThat(shown.path("description").asText())
          .isEqualTo("Nightly ledger export.\nPage the owner when it fails.");
      assertThat(shown.path("owner").asText()).isEqualTo("Zoë <ledger-" + RUN + ">");
      assertThat(shown.path("alarmEmails").toString())
          .as("stored stripped, in order")
          .isEqualTo("[\"ledger@example.com\",\"oncall+ledger@example.org\"]");
      assertThat(shown.path("alarmWebhooks").toString())
          .isEqualTo("[\"https://hooks.example.com/T0/B0/x?tags=a,b\"]");
    }

    // Importing the export again changes nothing: the new fields take part in the comparison.
    String export = node.get("/api/v1/job-export?app=" + app, VIEWER).body();
    ApiTestNode.Response again = node.post("/api/v1/job-import?dryRun=true", export, ADMIN);
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.json().at("/items/0/action").asText()).isEqualTo("UNCHANGED");

    // A full update replaces them; leaving them out clears them.
    job.put("owner", "platform");
    job.remove("description");
    job.remove("alarmEmails");
    job.put("alarmWebhooks", List.of("http://10.0.0.9:8080/alarm"));
    ApiTestNode.Response updated =
        node.call(
            "PUT", "/api/v1/jobs/" + id, ApiTestNode.json(job), ADMIN, Map.of("If-Match", "\"1\""));
    assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
    JsonNode read = node.get("/api/v1/jobs/" + id, VIEWER).json();
    assertThat(read.path("owner").asText()).isEqualTo("platform");
    assertThat(read.path("description").asText()).isEmpty();
    assertThat(read.path("alarmEmails").isEmpty()).isTrue();
    assertThat(read.path("alarmWebhooks").toString()).isEqualTo("[\"http://10.0.0.9:8080/alarm\"]");
    assertThat(read.path("scheduleVersion").asLong())
        .as("not a schedule change")
        .isEqualTo(created.json().path("scheduleVersion").asLong());
  }

  @Test
  void copyCreatesADisabledJobWithTheSameDefinitionUnderANewOrGeneratedId() {
    String id = id("original");
    String app = "copies-" + RUN;
    Map<String, Object> job = jobMap(id, app, "CRON", "0 15 2 ? * 1", "Asia/Shanghai", true);
    job.put("cronDialect", "QUARTZ");
    job.put("params", "{\"n\":1}");
    job.put("routing", "ROUND");
    job.put("retryCount", 2);
    job.put("owner", "ledger-team");
    job.put("alarmEmails", List.of("ledger@example.com"));
    job.put("childJobIds", List.of(id("some-child")));
    ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);

    String named = id("named-copy");
    ApiTestNode.Response copied =
        node.post("/api/v1/jobs/" + id + "/copy", "{\"id\":\"" + named + "\"}", ADMIN);
    assertThat(copied.status()).as(copied.toString()).isEqualTo(201);
    assertThat(copied.headers().firstValue("Location")).hasValue("/api/v1/jobs/" + named);
    assertThat(copied.headers().firstValue("ETag")).hasValue("\"1\"");
    assertThat(copied.json().path("enabled").asBoolean()).as("a copy starts disabled").isFalse();
    assertThat(copied.json().has("nextFireMs")).isFalse();
    JsonNode original = definition(node.get("/api/v1/jobs/" + id, VIEWER).json());
    JsonNode copy = definition(node.get("/api/v1/jobs/" + named, VIEWER).json());
    com.fasterxml.jackson.databind.node.ObjectNode expected = original.deepCopy();
    expected.put("id", named).put("enabled", false);
    assertThat(copy).isEqualTo(expected);

    ApiTestNode.Response generated = node.post("/api/v1/jobs/" + id + "/copy", null, ADMIN);
    assertThat(generated.status()).as(generated.toString()).isEqualTo(201);
    assertThat(generated.json().path("id").asText()).isEqualTo(id + "-copy");
    ApiTestNode.Response second = node.post("/api/v1/jobs/" + id + "/copy", "{}", ADMIN);
    assertThat(second.status()).as(second.toString()).isEqualTo(201);
    assertThat(second.json().path("id").asText()).isEqualTo(id + "-copy-2");

    ApiTestNode.Response taken =
        node.post("/api/v1/jobs/" + id + "/copy", "{\"id\":\"" + named + "\"}", ADMIN);
    assertThat(taken.status()).isEqualTo(409);
    assertThat(taken.json().path("code").asText()).isEqualTo("job-exists");
    ApiTestNode.Response unknown = node.post("/api/v1/jobs/nope-" + RUN + "/copy", null, ADMIN);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().path("code").asText()).isEqualTo("job-not-found");
  }

  @Test
  void anAppsDefaultRoutingIsWhatItsJobsCreatedWithoutARoutingGet() {
    String app = "settled-" + RUN;
    ApiTestNode.Response before = node.get("/api/v1/apps/" + app, VIEWER);
    assertThat(before.status()).as(before.toString()).isEqualTo(200);
    assertThat(before.json().path("description").asText()).isEmpty();
    assertThat(before.json().has("defaultRouting")).isFalse();
    assertThat(before.json().path("effectiveRouting").asText()).isEqualTo("CONSISTENT_HASH");

    ApiTestNode.Response put =
        node.call(
            "PUT",
            "/api/v1/apps/" + app,
            "{\"description\":\"Ledger executors, team ledger\",\"defaultRouting\":\"ROUND\"}",
            ADMIN,
            Map.of());
    assertThat(put.status()).as(put.toString()).isEqualTo(200);
    assertThat(put.json().path("defaultRouting").asText()).isEqualTo("ROUND");
    JsonNode read = node.get("/api/v1/apps/" + app, VIEWER).json();
    assertThat(read.path("description").asText()).isEqualTo("Ledger executors, team ledger");
    assertThat(read.path("effectiveRouting").asText()).isEqualTo("ROUND");
    assertThat(read.path("updatedMs").asLong()).isPositive();

    Map<String, Object> plain = jobMap(id("app-default"), app, "CRON", "0 0 3 * * *", "UTC", true);
    ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(plain), ADMIN);
    assertThat(created.json().path("routing").asText()).as("the app's default").isEqualTo("ROUND");
    Map<String, Object> explicit = jobMap(id("app-own"), app, "CRON", "0 0 3 * * *", "UTC", true);
    explicit.put("routing", "LAST");
    assertThat(
            node.post("/api/v1/jobs", ApiTestNode.json(explicit), ADMIN)
                .json()
                .path("routing")
                .asText())
        .as("a job's own routing wins")
        .isEqualTo("LAST");
    Map<String, Object> other =
        jobMap(id("other-app"), "unsettled-" + RUN, "CRON", "0 0 3 * * *", "UTC", true);
    assertThat(
            node.post("/api/v1/jobs", ApiTestNode.json(other), ADMIN)
                .json()
                .path("routing")
                .asText())
        .as("an app without settings: the global default")
        .isEqualTo("CONSISTENT_HASH");

    JsonNode executors = node.get("/api/v1/executors/" + app, VIEWER).json();
    assertThat(executors.path("description").asText()).isEqualTo("Ledger executors, team ledger");
    assertThat(executors.path("defaultRouting").asText()).isEqualTo("ROUND");

    // Cleared: back to the global default for the next job; the stored jobs keep theirs.
    assertThat(node.call("PUT", "/api/v1/apps/" + app, "{}", ADMIN, Map.of()).status())
        .isEqualTo(200);
    plain.put("id", id("app-default-2"));
    assertThat(
            node.post("/api/v1/jobs", ApiTestNode.json(plain), ADMIN)
                .json()
                .path("routing")
                .asText())
        .isEqualTo("CONSISTENT_HASH");
    assertThat(
            node.get("/api/v1/jobs/" + id("app-default"), VIEWER).json().path("routing").asText())
        .isEqualTo("ROUND");
  }

  @Test
  void creatingAnExistingJobIsAConflictNamingTheId() {
    String id = id("twice");
    assertThat(node.post("/api/v1/jobs", cronJob(id, "a-" + RUN, "0 0 3 * * *"), ADMIN).status())
        .isEqualTo(201);
    ApiTestNode.Response again =
        node.post("/api/v1/jobs", cronJob(id, "a-" + RUN, "0 0 4 * * *"), ADMIN);
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.json().path("code").asText()).isEqualTo("job-exists");
    assertThat(again.json().at("/errors/0/field").asText()).isEqualTo("id");
    assertThat(node.get("/api/v1/jobs/" + id, ADMIN).json().path("schedule").asText())
        .isEqualTo("0 0 3 * * *");
  }

  @Test
  void previewOfAnUnsavedCronFollowsItsZoneAcrossDaylightSaving() {
    // 2027-03-28 is the spring-forward day in Berlin: 02:30 local does not exist that night.
    long from = java.time.Instant.parse("2027-03-26T12:00:00Z").toEpochMilli();
    ApiTestNode.Response preview =
        node.post(
            "/api/v1/schedules/preview",
            ApiTestNode.json(
                Map.of(
                    "scheduleType", "CRON",
                    "schedule", "0 30 2 * * *",
                    "zone", "Europe/Berlin",
                    "count", 3,
                    "fromMs", from)),
            VIEWER);
    assertThat(preview.status()).as(preview.toString()).isEqualTo(200);
    JsonNode fires = preview.json().path("fires");
    assertThat(fires.size()).isEqualTo(3);
    assertThat(fires.get(0).path("time").asText()).isEqualTo("2027-03-27T02:30+01:00");
    assertThat(fires.get(1).path("time").asText())
        .as("skipped local time fires at the end of the gap")
        .isEqualTo("2027-03-28T03:00+02:00");
    assertThat(fires.get(2).path("time").asText()).isEqualTo("2027-03-29T02:30+02:00");
  }

  @Test
  void openApiDocumentIsServedWithoutAToken() {
    ApiTestNode.Response docs = node.get("/v3/api-docs", null);
    assertThat(docs.status()).isEqualTo(200);
    assertThat(docs.json().path("paths").has("/api/v1/jobs")).isTrue();
    assertThat(docs.json().path("paths").has("/api/v1/jobs/{id}")).isTrue();
  }

  @Test
  void theOpenApiDocumentListsOnlyTheApiBehindABearerToken() {
    // Issue #15 item 7.
    JsonNode docs = node.get("/v3/api-docs", null).json();
    List<String> paths = new ArrayList<>();
    docs.path("paths").fieldNames().forEachRemaining(paths::add);
    assertThat(paths).isNotEmpty().allMatch(p -> p.startsWith("/api/v1/"), "under /api/v1");
    JsonNode schemes = docs.at("/components/securitySchemes");
    assertThat(schemes.size()).isEqualTo(1);
    String scheme = schemes.fieldNames().next();
    assertThat(schemes.path(scheme).path("type").asText()).isEqualTo("http");
    assertThat(schemes.path(scheme).path("scheme").asText()).isEqualTo("bearer");
    assertThat(docs.path("security").findValues(scheme)).as("global security").isNotEmpty();
    assertThat(docs.at("/paths/~1api~1v1~1triggers~1{triggerId}~1cancel/post").isObject())
        .as("cancel is POST /api/v1/triggers/{triggerId}/cancel")
        .isTrue();
    assertThat(docs.at("/paths/~1api~1v1~1triggers~1{triggerId}").has("post")).isFalse();
  }

  @Test
  void swaggerUiIsServedToAViewerAndWithoutAToken() {
    for (String token : java.util.Arrays.asList(VIEWER, null)) {
      ApiTestNode.Response page = node.get("/swagger-ui/index.html", token);
      assertThat(page.status()).as(page.toString()).isEqualTo(200);
      assertThat(page.contentType()).startsWith("text/html");
      assertThat(page.body()).containsIgnoringCase("swagger");
      ApiTestNode.Response config = node.get("/v3/api-docs/swagger-config", token);
      assertThat(config.status()).as(config.toString()).isEqualTo(200);
      ApiTestNode.Response entry = node.get("/swagger-ui.html", token);
      assertThat(entry.status()).as("the documented entry redirects to the page").isEqualTo(302);
    }
  }

  /**
   * Drives every operation the OpenAPI document lists, each way it succeeds, and compares the
   * statuses it answered with the 2xx codes the document gives for it (issue #15 item 7: create was
   * documented 200 and answers 201, delete 204, trigger 202).
   */
  /** A VIEWER's GET of a history endpoint, once PostgreSQL's schema is there (deadline). */
  private static ApiTestNode.Response historyAnswer(String path) {
    ApiTestNode.Response[] last = new ApiTestNode.Response[1];
    dev.kairos.devinfra.Poll.until(
        java.time.Duration.ofSeconds(30),
        "the history endpoint " + path + " answers (schema migrated)",
        () -> (last[0] = node.get(path, VIEWER)).status() != 503);
    return last[0];
  }

  @Test
  void everyDocumentedSuccessStatusIsTheStatusTheEndpointAnswers() {
    JsonNode docs = node.get("/v3/api-docs", null).json();
    String job = id("doc");
    String created = id("doc-new");
    assertThat(node.post("/api/v1/jobs", cronJob(job, "doc-" + RUN, "0 0 3 * * *"), ADMIN).status())
        .isEqualTo(201);
    TriggerRecords redis = new TriggerRecords();
    String running = job + ":1700000001000";
    String dispatched = job + ":1700000002000";
    Map<String, List<Supplier<ApiTestNode.Response>>> drivers = new LinkedHashMap<>();
    drivers.put(
        "POST /api/v1/jobs",
        List.of(
            () -> node.post("/api/v1/jobs", cronJob(created, "doc-" + RUN, "0 0 4 * * *"), ADMIN)));
    drivers.put("GET /api/v1/jobs", List.of(() -> node.get("/api/v1/jobs", VIEWER)));
    drivers.put("GET /api/v1/jobs/{id}", List.of(() -> node.get("/api/v1/jobs/" + job, VIEWER)));
    drivers.put(
        "PUT /api/v1/jobs/{id}",
        List.of(
            () ->
                node.call(
                    "PUT",
                    "/api/v1/jobs/" + created,
                    cronJob(created, "doc-" + RUN, "0 0 5 * * *"),
                    ADMIN,
                    Map.of("If-Match", "\"1\""))));
    drivers.put(
        "POST /api/v1/jobs/{id}/disable",
        List.of(() -> node.post("/api/v1/jobs/" + job + "/disable", null, ADMIN)));
    drivers.put(
        "POST /api/v1/jobs/{id}/enable",
        List.of(() -> node.post("/api/v1/jobs/" + job + "/enable", null, ADMIN)));
    drivers.put(
        "POST /api/v1/jobs/{id}/copy",
        List.of(() -> node.post("/api/v1/jobs/" + job + "/copy", null, ADMIN)));
    drivers.put(
        "POST /api/v1/jobs/{id}/trigger",
        List.of(() -> node.post("/api/v1/jobs/" + job + "/trigger", null, ADMIN)));
    drivers.put(
        "GET /api/v1/jobs/{id}/next-fires",
        List.of(() -> node.get("/api/v1/jobs/" + job + "/next-fires", VIEWER)));
    drivers.put(
        "GET /api/v1/jobs/{id}/triggers",
        List.of(() -> node.get("/api/v1/jobs/" + job + "/triggers", VIEWER)));
    drivers.put(
        "GET /api/v1/jobs/{id}/lateness",
        List.of(() -> node.get("/api/v1/jobs/" + job + "/lateness", VIEWER)));
    drivers.put(
        "POST /api/v1/schedules/preview",
        List.of(
            () ->
                node.post(
                    "/api/v1/schedules/preview",
                    "{\"scheduleType\":\"CRON\",\"schedule\":\"0 0 3 * * *\"}",
                    VIEWER)));
    for (String batch : List.of("enable", "disable", "delete")) {
      String ids = batch.equals("delete") ? "gone-" + RUN : job;
      drivers.put(
          "POST /api/v1/job-batches/" + batch,
          List.of(
              () ->
                  node.post("/api/v1/job-batches/" + batch, "{\"ids\":[\"" + ids + "\"]}", ADMIN)));
    }
    drivers.put(
        "GET /api/v1/job-export",
        List.of(() -> node.get("/api/v1/job-export?app=doc-" + RUN, VIEWER)));
    drivers.put(
        "POST /api/v1/job-import",
        List.of(
            () ->
                node.post(
                    "/api/v1/job-import?dryRun=true",
                    node.get("/api/v1/job-export?app=doc-" + RUN, VIEWER).body(),
                    ADMIN)));
    drivers.put(
        "POST /api/v1/migrations/xxl-job",
        List.of(
            () ->
                node.call(
                    "POST",
                    "/api/v1/migrations/xxl-job",
                    "CREATE TABLE xxl_job_group (id int, app_name text, title text);"
                        + " CREATE TABLE xxl_job_info (id int);",
                    ADMIN,
                    Map.of("Content-Type", "text/plain"))));
    drivers.put(
        "GET /api/v1/triggers/{triggerId}",
        List.of(
            () -> {
              redis.write(job, running, "RUNNING");
              return node.get("/api/v1/triggers/" + running, VIEWER);
            }));
    drivers.put(
        "GET /api/v1/triggers/{triggerId}/log",
        List.of(
            () -> {
              redis.write(job, running, "RUNNING");
              return node.get("/api/v1/triggers/" + running + "/log?after=0", VIEWER);
            }));
    drivers.put(
        "POST /api/v1/triggers/{triggerId}/cancel",
        List.of(
            () -> {
              redis.write(job, dispatched, "DISPATCHED");
              return node.post("/api/v1/triggers/" + dispatched + "/cancel", null, ADMIN);
            },
            () -> node.post("/api/v1/triggers/" + running + "/cancel", null, ADMIN)));
    drivers.put("GET /api/v1/executors", List.of(() -> node.get("/api/v1/executors", VIEWER)));
    drivers.put(
        "GET /api/v1/apps/{app}", List.of(() -> node.get("/api/v1/apps/doc-" + RUN, VIEWER)));
    drivers.put(
        "PUT /api/v1/apps/{app}",
        List.of(
            () ->
                node.call(
                    "PUT",
                    "/api/v1/apps/doc-" + RUN,
                    "{\"description\":\"docs\"}",
                    ADMIN,
                    Map.of())));
    drivers.put(
        "GET /api/v1/executors/{app}",
        List.of(() -> node.get("/api/v1/executors/doc-" + RUN, VIEWER)));
    drivers.put("GET /api/v1/cluster", List.of(() -> node.get("/api/v1/cluster", VIEWER)));
    drivers.put(
        "GET /api/v1/cluster/pause", List.of(() -> node.get("/api/v1/cluster/pause", VIEWER)));
    drivers.put(
        "POST /api/v1/cluster/pause",
        List.of(() -> node.post("/api/v1/cluster/pause", null, ADMIN)));
    drivers.put(
        "POST /api/v1/cluster/resume",
        List.of(() -> node.post("/api/v1/cluster/resume", null, ADMIN)));
    drivers.put(
        "POST /api/v1/admin/rebuild",
        List.of(() -> node.post("/api/v1/admin/rebuild", null, ADMIN)));
    drivers.put("GET /api/v1/node/drain", List.of(() -> node.get("/api/v1/node/drain", VIEWER)));
    // The history endpoints read PostgreSQL, whose schema the node's sync worker migrates once it
    // reaches it: the first call waits for that.
    drivers.put(
        "GET /api/v1/trigger-search",
        List.of(() -> historyAnswer("/api/v1/trigger-search?jobId=" + job)));
    drivers.put("GET /api/v1/reports/daily", List.of(() -> historyAnswer("/api/v1/reports/daily")));
    drivers.put(
        "GET /api/v1/jobs/{id}/stats",
        List.of(() -> historyAnswer("/api/v1/jobs/" + job + "/stats")));
    String tokenBody = "{\"name\":\"doc-" + RUN + "\",\"owner\":\"it\",\"role\":\"VIEWER\"}";
    String revokedToken =
        node.post("/api/v1/tokens", tokenBody, ADMIN).json().path("details").path("id").asText();
    drivers.put("GET /api/v1/tokens", List.of(() -> node.get("/api/v1/tokens", ADMIN)));
    drivers.put(
        "POST /api/v1/tokens", List.of(() -> node.post("/api/v1/tokens", tokenBody, ADMIN)));
    String userBody =
        "{\"username\":\"doc-" + RUN + "\",\"password\":\"a long passphrase\",\"role\":\"VIEWER\"}";
    drivers.put("GET /api/v1/users", List.of(() -> node.get("/api/v1/users", ADMIN)));
    drivers.put("POST /api/v1/users", List.of(() -> node.post("/api/v1/users", userBody, ADMIN)));
    drivers.put(
        "PUT /api/v1/users/{username}/password",
        List.of(
            () ->
                node.call(
                    "PUT",
                    "/api/v1/users/doc-" + RUN + "/password",
                    "{\"password\":\"another long passphrase\"}",
                    ADMIN,
                    Map.of())));
    drivers.put(
        "DELETE /api/v1/users/{username}",
        List.of(() -> node.call("DELETE", "/api/v1/users/doc-" + RUN, null, ADMIN, Map.of())));
    drivers.put(
        "DELETE /api/v1/tokens/{id}",
        List.of(
            () -> node.call("DELETE", "/api/v1/tokens/" + revokedToken, null, ADMIN, Map.of())));
    drivers.put(
        "GET /api/v1/audit",
        List.of(
            () -> {
              ApiTestNode.Response[] last = new ApiTestNode.Response[1];
              dev.kairos.devinfra.Poll.until(
                  java.time.Duration.ofSeconds(30),
                  "the audit log answers (schema migrated)",
                  () -> (last[0] = node.get("/api/v1/audit?jobId=" + job, ADMIN)).status() != 503);
              return last[0];
            }));
    drivers.put(
        "DELETE /api/v1/jobs/{id}",
        List.of(() -> node.call("DELETE", "/api/v1/jobs/" + created, null, ADMIN, Map.of())));
    java.time.Instant backfillTo =
        java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS);
    java.time.Instant backfillFrom = backfillTo.minus(java.time.Duration.ofDays(3));
    String backfillBody =
        "{\"from\":\"" + backfillFrom + "\",\"to\":\"" + backfillTo + "\",\"maxConcurrent\":1}";
    String backfill =
        dev.kairos.backfill.Backfill.idOf(
            job, backfillFrom.toEpochMilli(), backfillTo.toEpochMilli());
    // Started (201), then the same request again (200: the same backfill).
    drivers.put(
        "POST /api/v1/jobs/{id}/backfills",
        List.of(
            () -> node.post("/api/v1/jobs/" + job + "/backfills", backfillBody, ADMIN),
            () -> node.post("/api/v1/jobs/" + job + "/backfills", backfillBody, ADMIN)));
    drivers.put(
        "GET /api/v1/jobs/{id}/backfills",
        List.of(() -> node.get("/api/v1/jobs/" + job + "/backfills", VIEWER)));
    drivers.put(
        "GET /api/v1/backfills/{backfillId}",
        List.of(() -> node.get("/api/v1/backfills/" + backfill, VIEWER)));
    drivers.put(
        "POST /api/v1/backfills/{backfillId}/cancel",
        List.of(() -> node.post("/api/v1/backfills/" + backfill + "/cancel", null, ADMIN)));

    String workflow = id("doc-wf");
    String workflowBody =
        "{\"id\":\""
            + workflow
            + "\",\"app\":\"doc-"
            + RUN
            + "\",\"nodes\":[{\"name\":\"only\",\"jobId\":\""
            + job
            + "\"}],\"edges\":[]}";
    String[] workflowRun = new String[1];
    drivers.put(
        "POST /api/v1/workflows",
        List.of(() -> node.post("/api/v1/workflows", workflowBody, ADMIN)));
    drivers.put("GET /api/v1/workflows", List.of(() -> node.get("/api/v1/workflows", VIEWER)));
    drivers.put(
        "GET /api/v1/workflows/{id}",
        List.of(() -> node.get("/api/v1/workflows/" + workflow, VIEWER)));
    drivers.put(
        "PUT /api/v1/workflows/{id}",
        List.of(
            () ->
                node.call(
                    "PUT",
                    "/api/v1/workflows/" + workflow,
                    workflowBody,
                    ADMIN,
                    Map.of("If-Match", "\"1\""))));
    drivers.put(
        "GET /api/v1/workflows/export",
        List.of(() -> node.get("/api/v1/workflows/export?app=doc-" + RUN, VIEWER)));
    drivers.put(
        "POST /api/v1/workflows/import",
        List.of(
            () ->
                node.post(
                    "/api/v1/workflows/import",
                    node.get("/api/v1/workflows/export?app=doc-" + RUN, VIEWER).body(),
                    ADMIN)));
    drivers.put(
        "POST /api/v1/workflows/{id}/runs",
        List.of(
            () -> {
              ApiTestNode.Response r =
                  node.post("/api/v1/workflows/" + workflow + "/runs", null, ADMIN);
              workflowRun[0] = r.json() == null ? "none" : r.json().path("id").asText();
              return r;
            }));
    drivers.put(
        "GET /api/v1/workflows/{id}/runs",
        List.of(() -> node.get("/api/v1/workflows/" + workflow + "/runs", VIEWER)));
    drivers.put(
        "GET /api/v1/workflow-runs/{runId}",
        List.of(() -> node.get("/api/v1/workflow-runs/" + workflowRun[0], VIEWER)));
    drivers.put(
        "POST /api/v1/workflow-runs/{runId}/cancel",
        List.of(
            () -> node.post("/api/v1/workflow-runs/" + workflowRun[0] + "/cancel", null, ADMIN)));
    drivers.put(
        "DELETE /api/v1/workflows/{id}",
        List.of(() -> node.call("DELETE", "/api/v1/workflows/" + workflow, null, ADMIN, Map.of())));

    String calendar = "/api/v1/calendars/" + id("doc-calendar");
    drivers.put(
        "PUT /api/v1/calendars/{name}",
        List.of(() -> node.call("PUT", calendar, "{\"dates\":[\"2026-12-25\"]}", ADMIN, Map.of())));
    drivers.put("GET /api/v1/calendars", List.of(() -> node.get("/api/v1/calendars", VIEWER)));
    drivers.put("GET /api/v1/calendars/{name}", List.of(() -> node.get(calendar, VIEWER)));
    drivers.put(
        "DELETE /api/v1/calendars/{name}",
        List.of(() -> node.call("DELETE", calendar, null, ADMIN, Map.of())));

    Map<String, List<Integer>> documented = new TreeMap<>();
    docs.path("paths")
        .fields()
        .forEachRemaining(
            path ->
                path.getValue()
                    .fields()
                    .forEachRemaining(
                        op -> {
                          List<Integer> codes = new ArrayList<>();
                          op.getValue()
                              .path("responses")
                              .fieldNames()
                              .forEachRemaining(
                                  code -> {
                                    if (code.startsWith("2")) {
                                      codes.add(Integer.parseInt(code));
                                    }
                                  });
                          documented.put(
                              op.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey(),
                              codes);
                        }));
    // Draining this one-node cluster is refused (nobody could take its wheel): its success codes
    // are driven by NodeDrainDrillIT on three node processes; here the refusal changes nothing.
    assertThat(documented.remove("POST /api/v1/node/drain")).containsExactlyInAnyOrder(200, 202);
    ApiTestNode.Response bad = node.post("/api/v1/node/drain", "{\"exit\":\"maybe\"}", ADMIN);
    assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
    assertThat(bad.json().path("errors").findValuesAsText("field")).contains("exit");
    ApiTestNode.Response refused = node.post("/api/v1/node/drain", null, ADMIN);
    assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
    assertThat(refused.json().path("type").asText()).endsWith("drain-refused");
    assertThat(node.get("/api/v1/node/drain", VIEWER).json().path("phase").asText())
        .isEqualTo("SERVING");
    assertThat(documented.keySet())
        .as("every documented operation has a driver here, and every driver an operation")
        .containsExactlyInAnyOrderElementsOf(drivers.keySet());
    try {
      for (var driver : drivers.entrySet()) {
        java.util.Set<Integer> answered = new java.util.TreeSet<>();
        for (Supplier<ApiTestNode.Response> call : driver.getValue()) {
          ApiTestNode.Response response = call.get();
          assertThat(response.status()).as(driver.getKey() + ": " + response).isBetween(200, 299);
          answered.add(response.status());
        }
        assertThat(new java.util.TreeSet<>(documented.get(driver.getKey())))
            .as(driver.getKey() + " documented success codes")
            .isEqualTo(answered);
      }
    } finally {
      node.post("/api/v1/cluster/resume", null, ADMIN);
      redis.close();
    }
  }

  /** Writes trigger records as the fire path leaves them, for the trigger endpoints to find. */
  private static final class TriggerRecords implements AutoCloseable {
    private final KairosRedis redis =
        KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(5));
    private final dev.kairos.core.redis.RedisKeys keys =
        node.context().getBean(dev.kairos.core.redis.RedisKeys.class);

    void write(String jobId, String triggerId, String state) {
      String record = dev.kairos.core.redis.RedisKeys.trigger(keys.shardOf(jobId), triggerId);
      redis
          .sync()
          .hset(
              record,
              Map.of(
                  dev.kairos.protocol.record.TriggerFields.ID, triggerId,
                  dev.kairos.protocol.record.TriggerFields.JOB_ID, jobId,
                  dev.kairos.protocol.record.TriggerFields.FIRE_MS,
                      triggerId.substring(triggerId.lastIndexOf(':') + 1),
                  dev.kairos.protocol.record.TriggerFields.STATE, state,
                  dev.kairos.protocol.record.TriggerFields.EXECUTOR, "exec-doc"));
      redis.sync().pexpire(record, Duration.ofMinutes(10).toMillis());
    }

    @Override
    public void close() {
      redis.close();
    }
  }

  @Test
  void listFiltersAndPagesJobsSortedById() {
    String app = "page-" + RUN;
    for (int i = 0; i < 5; i++) {
      Map<String, Object> job = new LinkedHashMap<>();
      job.put("id", app + "-" + i);
      job.put("app", app);
      job.put("handler", i % 2 == 0 ? "even" : "odd");
      job.put("scheduleType", "API");
      job.put("enabled", i < 3);
      assertThat(node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN).status()).isEqualTo(201);
    }
    ApiTestNode.Response page = node.get("/api/v1/jobs?app=" + app + "&size=2&page=1", VIEWER);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.json().path("total").asLong()).isEqualTo(5);
    assertThat(page.json().path("items").findValuesAsText("id"))
        .containsExactly(app + "-2", app + "-3");
    assertThat(
            node.get("/api/v1/jobs?app=" + app + "&enabled=false", VIEWER)
                .json()
                .path("total")
                .asLong())
        .isEqualTo(2);
    assertThat(
            node.get("/api/v1/jobs?app=" + app + "&handler=odd", VIEWER)
                .json()
                .path("total")
                .asLong())
        .isEqualTo(2);
    assertThat(
            node.get("/api/v1/jobs?q=PAGE-" + RUN + "-4", VIEWER)
                .json()
                .path("items")
                .findValuesAsText("id"))
        .containsExactly(app + "-4");
    assertThat(node.get("/api/v1/jobs?app=" + app + "&page=9", VIEWER).json().path("items").size())
        .isZero();
  }

  @Test
  void listPagesByCursorInIdOrderAndNarrowsByIdPrefix() {
    String app = "cursor-" + RUN;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      String id = app + (i < 4 ? "-a" : "-b") + i;
      ids.add(id);
      Map<String, Object> job = new LinkedHashMap<>();
      job.put("id", id);
      job.put("app", app);
      job.put("handler", i % 2 == 0 ? "even" : "odd");
      job.put("scheduleType", "API");
      assertThat(node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN).status()).isEqualTo(201);
    }

    List<String> seen = new ArrayList<>();
    String next = null;
    int pages = 0;
    do {
      String path = "/api/v1/jobs?app=" + app + "&size=3" + (next == null ? "" : "&cursor=" + next);
      JsonNode page = node.get(path, VIEWER).json();
      assertThat(page.path("total").asLong()).isEqualTo(7);
      assertThat(page.path("totalExact").asBoolean()).isTrue();
      assertThat(page.has("page")).as("page number only without a cursor").isEqualTo(next == null);
      seen.addAll(page.path("items").findValuesAsText("id"));
      next = page.path("nextCursor").isMissingNode() ? null : page.path("nextCursor").asText();
      pages++;
    } while (next != null);
    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactlyElementsOf(ids);

    JsonNode b = node.get("/api/v1/jobs?idPrefix=" + app + "-b", VIEWER).json();
    assertThat(b.path("items").findValuesAsText("id")).containsExactlyElementsOf(ids.subList(4, 7));
    assertThat(b.path("total").asLong()).isEqualTo(3);
    assertThat(b.has("nextCursor")).isFalse();

    // A filter tested job by job pages by cursor too; this one saw its whole range at once.
    JsonNode odd = node.get("/api/v1/jobs?app=" + app + "&handler=odd&size=2", VIEWER).json();
    assertThat(odd.path("items").findValuesAsText("id")).containsExactly(ids.get(1), ids.get(3));
    String cursor = odd.path("nextCursor").asText();
    JsonNode odd2 =
        node.get("/api/v1/jobs?app=" + app + "&handler=odd&size=2&cursor=" + cursor, VIEWER).json();
    assertThat(odd2.path("items").findValuesAsText("id")).containsExactly(ids.get(5));
    assertThat(odd2.has("nextCursor")).isFalse();

    // The executors' job counts come from the same index.
    assertThat(node.get("/api/v1/executors/" + app, VIEWER).json().path("jobs").asInt())
        .isEqualTo(7);
    JsonNode executors = node.get("/api/v1/executors", VIEWER).json();
    JsonNode listed = null;
    for (JsonNode e : executors) {
      if (e.path("app").asText().equals(app)) {
        listed = e;
      }
    }
    assertThat(listed).as("%s in %s", app, executors).isNotNull();
    assertThat(listed.path("jobs").asInt()).isEqualTo(7);

    // The export is streamed in id order; its count follows the jobs.
    ApiTestNode.Response export = node.get("/api/v1/job-export?app=" + app, VIEWER);
    assertThat(export.status()).isEqualTo(200);
    assertThat(export.json().path("jobs").findValuesAsText("id")).containsExactlyElementsOf(ids);
    assertThat(export.json().path("count").asInt()).isEqualTo(7);
    assertThat(export.body().indexOf("\"count\"")).isGreaterThan(export.body().indexOf("\"jobs\""));
  }

  @Test
  void batchesApplyPerIdAndReportUnknownIds() {
    String a = id("batch-a");
    String b = id("batch-b");
    String missing = id("batch-missing");
    for (String id : List.of(a, b)) {
      assertThat(
              node.post("/api/v1/jobs", cronJob(id, "batch-" + RUN, "0 0 3 * * *"), ADMIN).status())
          .isEqualTo(201);
    }
    String ids = ApiTestNode.json(Map.of("ids", List.of(a, missing, b)));
    ApiTestNode.Response disabled = node.post("/api/v1/job-batches/disable", ids, ADMIN);
    assertThat(disabled.status()).as(disabled.toString()).isEqualTo(200);
    assertThat(disabled.json().path("succeeded").asInt()).isEqualTo(2);
    assertThat(disabled.json().path("notFound").asInt()).isEqualTo(1);
    assertThat(disabled.json().path("items").findValuesAsText("outcome"))
        .containsExactly("DONE", "NOT_FOUND", "DONE");
    assertThat(node.get("/api/v1/jobs/" + a, ADMIN).json().path("enabled").asBoolean()).isFalse();

    ApiTestNode.Response enabled = node.post("/api/v1/job-batches/enable", ids, ADMIN);
    assertThat(enabled.json().path("succeeded").asInt()).isEqualTo(2);
    assertThat(node.get("/api/v1/jobs/" + b, ADMIN).json().path("nextFireMs").asLong())
        .isPositive();

    ApiTestNode.Response deleted = node.post("/api/v1/job-batches/delete", ids, ADMIN);
    assertThat(deleted.json().path("succeeded").asInt()).isEqualTo(2);
    assertThat(node.get("/api/v1/jobs/" + a, ADMIN).status()).isEqualTo(404);
    assertThat(node.get("/api/v1/jobs/" + b, ADMIN).status()).isEqualTo(404);
  }

  @Test
  void exportDeleteAllImportRestoresTheSameJobsWithTheSameNextFires() {
    String app = "port-" + RUN;
    long inADay = System.currentTimeMillis() + Duration.ofDays(1).toMillis();
    List<Map<String, Object>> jobs =
        List.of(
            withChildren(
                jobMap(app + "-berlin", app, "CRON", "0 15 3 1 1 *", "Europe/Berlin", true),
                List.of(app + "-tokyo", app + "-manual")),
            jobMap(app + "-tokyo", app, "CRON", "0 0 9 * * MON", "Asia/Tokyo", true),
            jobMap(app + "-utc", app, "CRON", "30 45 23 31 12 *", "UTC", true),
            jobMap(app + "-once", app, "ONE_SHOT", Long.toString(inADay), "UTC", true),
            jobMap(app + "-manual", app, "API", "", "UTC", true),
            jobMap(app + "-off", app, "CRON", "0 0 4 * * *", "UTC", false));
    for (Map<String, Object> job : jobs) {
      Map<String, Object> withParams = new LinkedHashMap<>(job);
      withParams.put("params", "{\"for\":\"" + job.get("id") + "\"}");
      withParams.put("retryCount", 2);
      withParams.put("timeoutMs", 30_000);
      ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(withParams), ADMIN);
      assertThat(created.status()).as(created.toString()).isEqualTo(201);
    }
    Map<String, JsonNode> before = jobsOf(app);
    assertThat(before).hasSize(jobs.size());
    assertThat(before.get(app + "-berlin").path("childJobIds").size()).isEqualTo(2);

    ApiTestNode.Response export = node.get("/api/v1/job-export?app=" + app, VIEWER);
    assertThat(export.status()).isEqualTo(200);
    assertThat(export.json().path("count").asInt()).isEqualTo(jobs.size());
    assertThat(export.json().path("jobs").get(0).has("version")).isFalse();

    ApiTestNode.Response deleted =
        node.post(
            "/api/v1/job-batches/delete",
            ApiTestNode.json(Map.of("ids", List.copyOf(before.keySet()))),
            ADMIN);
    assertThat(deleted.json().path("succeeded").asInt()).isEqualTo(jobs.size());
    assertThat(jobsOf(app)).isEmpty();

    ApiTestNode.Response dryRun = node.post("/api/v1/job-import?dryRun=true", export.body(), ADMIN);
    assertThat(dryRun.status()).as(dryRun.toString()).isEqualTo(200);
    assertThat(dryRun.json().path("created").asInt()).isEqualTo(jobs.size());
    assertThat(dryRun.json().path("items").findValuesAsText("action")).containsOnly("CREATE");
    assertThat(jobsOf(app)).as("a dry run writes nothing").isEmpty();

    ApiTestNode.Response imported = node.post("/api/v1/job-import", export.body(), ADMIN);
    assertThat(imported.status()).as(imported.toString()).isEqualTo(200);
    assertThat(imported.json().path("created").asInt()).isEqualTo(jobs.size());

    Map<String, JsonNode> after = jobsOf(app);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    for (String id : before.keySet()) {
      assertThat(definition(after.get(id))).as(id).isEqualTo(definition(before.get(id)));
      assertThat(after.get(id).path("nextFireMs").asLong(-1))
          .as("next fire of " + id)
          .isEqualTo(before.get(id).path("nextFireMs").asLong(-1));
    }

    ApiTestNode.Response again = node.post("/api/v1/job-import", export.body(), ADMIN);
    assertThat(again.json().path("unchanged").asInt())
        .as("import is idempotent")
        .isEqualTo(jobs.size());

    String changed = app + "-tokyo";
    Map<String, Object> edit = jobMap(changed, app, "CRON", "0 0 10 * * MON", "Asia/Tokyo", true);
    assertThat(
            node.call(
                    "PUT",
                    "/api/v1/jobs/" + changed,
                    ApiTestNode.json(edit),
                    ADMIN,
                    Map.of("If-Match", "\"1\""))
                .status())
        .isEqualTo(200);
    ApiTestNode.Response plan = node.post("/api/v1/job-import?dryRun=true", export.body(), ADMIN);
    assertThat(plan.json().path("updated").asInt()).isEqualTo(1);
    assertThat(plan.json().path("unchanged").asInt()).isEqualTo(jobs.size() - 1);
    ApiTestNode.Response restored = node.post("/api/v1/job-import", export.body(), ADMIN);
    assertThat(restored.json().path("updated").asInt()).isEqualTo(1);
    assertThat(node.get("/api/v1/jobs/" + changed, ADMIN).json().path("schedule").asText())
        .isEqualTo("0 0 9 * * MON");
  }

  @Test
  void concurrentUpdatesWithTheSameVersionOneWinsTheOtherConflicts() throws Exception {
    String id = id("race");
    assertThat(node.post("/api/v1/jobs", cronJob(id, "race-" + RUN, "0 0 3 * * *"), ADMIN).status())
        .isEqualTo(201);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 1; round <= 5; round++) {
        String ifMatch = "\"" + round + "\"";
        CyclicBarrier together = new CyclicBarrier(2);
        List<Future<ApiTestNode.Response>> calls = new ArrayList<>();
        for (String cron : List.of("0 0 1 * * *", "0 0 2 * * *")) {
          calls.add(
              pool.submit(
                  () -> {
                    together.await(10, TimeUnit.SECONDS);
                    return node.call(
                        "PUT",
                        "/api/v1/jobs/" + id,
                        cronJob(id, "race-" + RUN, cron),
                        ADMIN,
                        Map.of("If-Match", ifMatch));
                  }));
        }
        List<Integer> statuses = new ArrayList<>();
        for (Future<ApiTestNode.Response> call : calls) {
          statuses.add(call.get(60, TimeUnit.SECONDS).status());
        }
        assertThat(statuses).as("round " + round).containsExactlyInAnyOrder(200, 409);
        assertThat(node.get("/api/v1/jobs/" + id, ADMIN).json().path("version").asLong())
            .isEqualTo(round + 1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFiredTriggerIsReadFromRedisThenItsHistoryFromPostgres() throws Exception {
    String id = id("tick");
    ApiTestNode.Response created =
        node.post(
            "/api/v1/jobs",
            ApiTestNode.json(
                Map.of(
                    "id", id,
                    "app", "nobody-" + RUN,
                    "handler", "tick",
                    "scheduleType", "CRON",
                    "schedule", "* * * * * *")),
            ADMIN);
    assertThat(created.status()).isEqualTo(201);
    String triggerId = id + ":" + created.json().path("nextFireMs").asLong();
    try {
      JsonNode trigger =
          poll(
              "trigger " + triggerId + " ends NO_EXECUTOR",
              () -> node.get("/api/v1/triggers/" + triggerId, VIEWER),
              r -> r.status() == 200 && "NO_EXECUTOR".equals(r.json().path("state").asText()));
      assertThat(trigger.path("source").asText()).isEqualTo("redis");
      assertThat(trigger.path("jobId").asText()).isEqualTo(id);
      assertThat(trigger.path("node").asText()).isEqualTo(NODE);
      assertThat(trigger.path("term").asLong()).isPositive();
      assertThat(trigger.path("message").asText()).isNotBlank();
      assertThat(trigger.path("history").findValuesAsText("state"))
          .startsWith("CLAIMED")
          .endsWith("NO_EXECUTOR");
      // Never started: no start time, no duration, no executor, and no nulls written for them.
      assertThat(trigger.has("startedMs")).as(trigger.toString()).isFalse();
      assertThat(trigger.has("durationMs")).as(trigger.toString()).isFalse();
      assertThat(trigger.has("executor")).as(trigger.toString()).isFalse();
      assertThat(trigger.has("trigger")).as(trigger.toString()).isFalse();

      JsonNode history =
          poll(
              "PostgreSQL has trigger " + triggerId,
              () -> node.get("/api/v1/jobs/" + id + "/triggers?size=100", VIEWER),
              r ->
                  r.status() == 200
                      && r.json().path("items").findValuesAsText("triggerId").contains(triggerId));
      assertThat(history.path("source").asText()).isEqualTo("postgresql");

      infra.postgres().stop();
      try {
        // The claim indexes each trigger under its job; one has ended by now.
        JsonNode fallback =
            poll(
                "trigger " + triggerId + " listed from Redis",
                () -> node.get("/api/v1/jobs/" + id + "/triggers?size=500", VIEWER),
                r ->
                    r.status() == 200
                        && r.json()
                            .path("items")
                            .findValuesAsText("triggerId")
                            .contains(triggerId));
        assertThat(fallback.path("source").asText()).isEqualTo("redis");
        assertThat(fallback.path("note").asText()).contains("PostgreSQL unavailable");
        List<JsonNode> items = new ArrayList<>();
        fallback.path("items").forEach(items::add);
        assertThat(items)
            .as("only this job's triggers, each a record still in Redis")
            .allSatisfy(
                item -> {
                  assertThat(item.path("jobId").asText()).isEqualTo(id);
                  assertThat(item.path("triggerId").asText())
                      .isEqualTo(id + ":" + item.path("fireMs").asLong());
                  assertThat(item.path("source").asText()).isEqualTo("redis");
                });
        assertThat(items.stream().map(item -> item.path("fireMs").asLong()).toList())
            .as("newest fire first")
            .isSortedAccordingTo(Comparator.reverseOrder())
            .doesNotHaveDuplicates();
        assertThat(fallback.path("total").asLong()).isGreaterThanOrEqualTo(items.size());
        assertThat(
                items.stream()
                    .filter(item -> item.path("triggerId").asText().equals(triggerId))
                    .findFirst()
                    .orElseThrow()
                    .path("state")
                    .asText())
            .isEqualTo("NO_EXECUTOR");
        assertThat(node.get("/api/v1/triggers/" + triggerId, VIEWER).json().path("source").asText())
            .isEqualTo("redis");
        ApiTestNode.Response rebuild = node.post("/api/v1/admin/rebuild", null, ADMIN);
        assertThat(rebuild.status()).as(rebuild.toString()).isEqualTo(503);
        assertThat(rebuild.json().path("code").asText()).isEqualTo("postgres-unavailable");
      } finally {
        infra.postgres().start();
      }
      JsonNode firstRebuild =
          poll(
              "a rebuild once PostgreSQL is back",
              () -> node.post("/api/v1/admin/rebuild", null, ADMIN),
              r -> r.status() == 200);
      assertThat(firstRebuild.path("shards").asInt()).isPositive();
      ApiTestNode.Response second = node.post("/api/v1/admin/rebuild", null, ADMIN);
      assertThat(second.status()).as(second.toString()).isEqualTo(200);
      assertThat(second.json().path("rebuiltShards").size())
          .as("every shard carries its marker after a rebuild")
          .isZero();
      assertThat(second.json().path("restoredJobs").asInt()).isZero();
    } finally {
      node.post("/api/v1/jobs/" + id + "/disable", null, ADMIN);
    }
  }

  @Test
  void executorsShowLiveSlotLeasesAndJobsWarnWithoutAHandler() throws Exception {
    String app = "exec-" + RUN;
    try (KairosRedis redis =
            KairosRedis.connect(List.of(infra.redis().uri()), false, Duration.ofSeconds(5));
        SlotLease lease =
            new SlotLease(
                redis, SlotLeaseConfig.of(app, "instance-" + RUN, "host-a", List.of("h1", "h2")))) {
      lease.start();
      ApiTestNode.Response one = node.get("/api/v1/executors/" + app, VIEWER);
      assertThat(one.status()).as(one.toString()).isEqualTo(200);
      assertThat(one.json().path("slots").size()).isEqualTo(1);
      JsonNode slot = one.json().path("slots").get(0);
      assertThat(slot.path("instanceId").asText()).isEqualTo("instance-" + RUN);
      assertThat(slot.path("host").asText()).isEqualTo("host-a");
      assertThat(slot.path("slot").asInt()).isEqualTo(lease.slot());
      assertThat(slot.path("leaseAgeMs").asLong()).isBetween(0L, 60_000L);
      assertThat(slot.path("busy").asBoolean()).isFalse();
      assertThat(one.json().path("handlers").toString()).contains("h1", "h2");

      ApiTestNode.Response served =
          node.post("/api/v1/jobs", ApiTestNode.json(apiJob(id("served"), app, "h1")), ADMIN);
      assertThat(served.status()).isEqualTo(201);
      assertThat(served.json().path("warnings").size()).as(served.toString()).isZero();
      ApiTestNode.Response unserved =
          node.post("/api/v1/jobs", ApiTestNode.json(apiJob(id("unserved"), app, "h3")), ADMIN);
      assertThat(unserved.status()).isEqualTo(201);
      assertThat(unserved.json().at("/warnings/0/code").asText()).isEqualTo("no-live-handler");

      ApiTestNode.Response all = node.get("/api/v1/executors", VIEWER);
      JsonNode mine = null;
      for (JsonNode entry : all.json()) {
        if (entry.path("app").asText().equals(app)) {
          mine = entry;
        }
      }
      assertThat(mine).as("apps named by jobs are listed: " + all).isNotNull();
      assertThat(mine.path("jobs").asInt()).isEqualTo(2);
      assertThat(mine.path("slots").size()).isEqualTo(1);
    }
  }

  @Test
  void clusterShowsThisNodeLeadingWithItsWheelAndFences() throws Exception {
    JsonNode cluster =
        poll(
            "this node leads",
            () -> node.get("/api/v1/cluster", VIEWER),
            r -> r.status() == 200 && NODE.equals(r.json().at("/leader/node").asText()));
    assertThat(cluster.path("node").asText()).isEqualTo(NODE);
    assertThat(cluster.path("shards").asInt()).isPositive();
    long term = cluster.at("/leader/term").asLong();
    assertThat(term).isPositive();
    assertThat(cluster.path("observedTerm").asLong()).isEqualTo(term);
    assertThat(cluster.path("members").findValuesAsText("name")).contains(NODE);
    assertThat(cluster.path("wheels").findValuesAsText("node")).contains(NODE);
    assertThat(cluster.at("/fences/highest").asLong()).isGreaterThanOrEqualTo(term);
    assertThat(cluster.at("/scan/lagMs").asLong()).isNotNegative();
    assertThat(cluster.path("sync").isObject()).as("persistence-sync is on").isTrue();
  }

  @Test
  void triggerNowReturnsATriggerIdThatFiresLikeAScheduledOne() throws Exception {
    String id = id("manual");
    assertThat(
            node.post("/api/v1/jobs", ApiTestNode.json(apiJob(id, "nobody-" + RUN, "h")), ADMIN)
                .status())
        .isEqualTo(201);
    ApiTestNode.Response accepted =
        node.post("/api/v1/jobs/" + id + "/trigger", "{\"params\":\"{\\\"n\\\":7}\"}", ADMIN);
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
    String triggerId = accepted.json().path("triggerId").asText();
    assertThat(triggerId).matches(java.util.regex.Pattern.quote(id) + ":\\d+:m[0-9a-f]+");
    assertThat(accepted.json().path("paramsOverridden").asBoolean()).isTrue();
    assertThat(accepted.headers().firstValue("Location")).hasValue("/api/v1/triggers/" + triggerId);

    JsonNode fired =
        poll(
            "manual trigger " + triggerId + " is claimed and fired",
            () -> node.get("/api/v1/triggers/" + triggerId, VIEWER),
            r -> r.status() == 200 && "NO_EXECUTOR".equals(r.json().path("state").asText()));
    assertThat(fired.path("jobId").asText()).isEqualTo(id);
    assertThat(fired.path("node").asText()).isEqualTo(NODE);

    ApiTestNode.Response again = node.post("/api/v1/jobs/" + id + "/trigger", null, ADMIN);
    assertThat(again.status()).isEqualTo(202);
    assertThat(again.json().path("triggerId").asText()).isNotEqualTo(triggerId);
    assertThat(again.json().path("paramsOverridden").asBoolean()).isFalse();

    // On a chosen slot: no executor of the app ever lives here, so it ends NO_EXECUTOR naming it.
    ApiTestNode.Response onSlot =
        node.post("/api/v1/jobs/" + id + "/trigger", "{\"slot\":3}", ADMIN);
    assertThat(onSlot.status()).as(onSlot.toString()).isEqualTo(202);
    assertThat(onSlot.json().path("slot").asInt()).isEqualTo(3);
    assertThat(again.json().has("slot")).isFalse();
    String slotTrigger = onSlot.json().path("triggerId").asText();
    JsonNode noExecutor =
        poll(
            "trigger " + slotTrigger + " on slot 3 ends NO_EXECUTOR",
            () -> node.get("/api/v1/triggers/" + slotTrigger, VIEWER),
            r -> r.status() == 200 && "NO_EXECUTOR".equals(r.json().path("state").asText()));
    assertThat(noExecutor.path("message").asText()).contains("in slot 3");

    node.post("/api/v1/jobs/" + id + "/disable", null, ADMIN);
    ApiTestNode.Response disabled = node.post("/api/v1/jobs/" + id + "/trigger", null, ADMIN);
    assertThat(disabled.status()).isEqualTo(409);
    assertThat(disabled.json().path("code").asText()).isEqualTo("job-disabled");
  }

  private static Map<String, Object> withChildren(Map<String, Object> job, List<String> children) {
    Map<String, Object> copy = new LinkedHashMap<>(job);
    copy.put("childJobIds", children);
    return copy;
  }

  private static Map<String, Object> apiJob(String id, String app, String handler) {
    return Map.of("id", id, "app", app, "handler", handler, "scheduleType", "API");
  }

  @Test
  void aViewerReadsParamsWithTheirSecretsMaskedWhereAnAdminReadsThemWhole() {
    String app = "secrets-" + RUN;
    String params =
        "{\"url\":\"https://ops:pw@billing.example.com/close\","
            + "\"headers\":{\"Authorization\":\"Bearer s3cret\",\"X-Request\":\"r-1\"},"
            + "\"apiToken\":\"t0ken\"}";
    Map<String, Object> job = jobMap(id("secret-params"), app, "CRON", "0 0 3 * * *", "UTC", true);
    job.put("handler", "kairos.http");
    job.put("params", params);
    ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    String path = "/api/v1/jobs/" + id("secret-params");

    String asAdmin = node.get(path, ADMIN).json().path("params").asText();
    assertThat(asAdmin).isEqualTo(params);

    for (String read :
        List.of(
            node.get(path, VIEWER).json().path("params").asText(),
            node.get("/api/v1/jobs?app=" + app, VIEWER)
                .json()
                .path("items")
                .get(0)
                .path("params")
                .asText(),
            node.get("/api/v1/job-export?app=" + app, VIEWER)
                .json()
                .path("jobs")
                .get(0)
                .path("params")
                .asText())) {
      assertThat(read)
          .doesNotContain("s3cret", "t0ken", "ops:pw")
          .contains("\"Authorization\":\"***\"", "\"apiToken\":\"***\"")
          .contains("https://***@billing.example.com/close", "\"X-Request\":\"r-1\"");
    }
    assertThat(node.get("/api/v1/job-export?app=" + app, ADMIN).body()).contains("s3cret");
  }

  private static Map<String, Object> jobMap(
      String id, String app, String type, String spec, String zone, boolean enabled) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", id);
    job.put("app", app);
    job.put("handler", "port");
    job.put("scheduleType", type);
    job.put("schedule", spec);
    job.put("zone", zone);
    job.put("enabled", enabled);
    return job;
  }

  private static Map<String, JsonNode> jobsOf(String app) {
    ApiTestNode.Response list = node.get("/api/v1/jobs?size=500&app=" + app, ADMIN);
    assertThat(list.status()).isEqualTo(200);
    Map<String, JsonNode> jobs = new TreeMap<>();
    list.json().path("items").forEach(j -> jobs.put(j.path("id").asText(), j));
    return jobs;
  }

  /** The user-defined fields only: versions and timestamps belong to the store. */
  private static JsonNode definition(JsonNode job) {
    com.fasterxml.jackson.databind.node.ObjectNode copy = job.deepCopy();
    copy.remove(List.of("version", "scheduleVersion", "createdMs", "updatedMs", "nextFireMs"));
    return copy;
  }

  private static JsonNode poll(
      String what, Supplier<ApiTestNode.Response> call, Predicate<ApiTestNode.Response> done) {
    return Poll.until(DEADLINE, Duration.ofMillis(200), what, call, done, "the expected answer")
        .json();
  }
}
