package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.migrate.xxljob.XxlJobMigration;
import dev.kairos.migrate.xxljob.kairos.KairosImportClient;
import dev.kairos.migrate.xxljob.mapping.MappingOptions;
import dev.kairos.migrate.xxljob.report.MigrationReport;
import dev.kairos.migrate.xxljob.source.SqlDumpReader;
import java.net.URI;
import java.time.DayOfWeek;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The xxl-job importer against a full node on real Redis, ZooKeeper, RocketMQ and PostgreSQL: the
 * node's endpoint ({@code POST /api/v1/migrations/xxl-job}) and the CLI's client, both writing
 * through the node's own job import.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class XxlJobMigrationIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String PATH = "/api/v1/migrations/xxl-job";
  private static final Map<String, String> TEXT = Map.of("Content-Type", "text/plain");
  private static ApiTestNode node;

  @BeforeAll
  static void startNode(EmbeddedInfrastructure shared) {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "xxl-import-it-" + RUN);
    overrides.put("kairos.zookeeper.root-path", "/kairos-xxl-import-it-" + RUN);
    overrides.put("kairos.cluster.secret", "xxl-import-it-secret");
    node = ApiTestNode.start(shared, overrides);
  }

  @AfterAll
  static void stopNode() {
    if (node != null) {
      node.close();
    }
  }

  /** A dump as mysqldump writes it: a Quartz cron job, a fixed-rate child, a Groovy GLUE job. */
  private static String dump(String app) {
    return """
        CREATE TABLE `xxl_job_group` (`id` int NOT NULL, `app_name` varchar(64) NOT NULL,
          `title` varchar(12) NOT NULL, PRIMARY KEY (`id`));
        INSERT INTO `xxl_job_group` VALUES (1,'%s','it');
        CREATE TABLE `xxl_job_info` (`id` int, `job_group` int, `job_desc` varchar(255),
          `author` varchar(64), `alarm_email` varchar(255), `schedule_type` varchar(50),
          `schedule_conf` varchar(128), `misfire_strategy` varchar(50),
          `executor_route_strategy` varchar(50), `executor_handler` varchar(255),
          `executor_param` varchar(512), `executor_block_strategy` varchar(50),
          `executor_timeout` int, `executor_fail_retry_count` int, `glue_type` varchar(50),
          `glue_source` mediumtext, `child_jobid` varchar(255), `trigger_status` tinyint);
        INSERT INTO `xxl_job_info` VALUES
          (1,1,'Sunday report','ann','ann@example.com','CRON','0 0 2 ? * 1','FIRE_ONCE_NOW',
           'SHARDING_BROADCAST','reportJob','{\\"it\\'s\\":1}','COVER_EARLY',90,3,'BEAN','','2,3',1),
          (2,1,'Every minute','ann',NULL,'FIX_RATE','60','DO_NOTHING','ROUND','tick',NULL,
           'SERIAL_EXECUTION',0,0,'BEAN',NULL,'',0),
          (3,1,'Shell','ann',NULL,'CRON','0 0 3 * * ?','DO_NOTHING','FIRST','',NULL,
           'SERIAL_EXECUTION',0,0,'GLUE_GROOVY','println 1',NULL,1);
        """
        .formatted(app);
  }

  private static String id(String prefix, int xxlId) {
    return prefix + xxlId;
  }

  @Test
  void aDryRunReportsWhatKairosWouldDoAndWritesNothing() {
    String prefix = "xxl-dry-" + RUN + "-";
    ApiTestNode.Response answer =
        node.call(
            "POST",
            PATH + "?zone=Asia/Shanghai&idPrefix=" + prefix,
            dump("dry-" + RUN),
            ADMIN,
            TEXT);

    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    JsonNode report = answer.json();
    assertThat(report.path("applied").asBoolean()).isFalse();
    assertThat(report.path("kairosChecked").asBoolean()).isTrue();
    assertThat(report.path("importable").asInt()).isEqualTo(2);
    assertThat(report.at("/jobs/0/kairos/action").asText()).isEqualTo("CREATE");
    assertThat(report.at("/jobs/0/kairos/applied").asBoolean()).isFalse();
    assertThat(report.at("/jobs/2/verdict").asText()).isEqualTo("SKIP");
    assertThat(node.get("/api/v1/jobs/" + id(prefix, 1), VIEWER).status()).isEqualTo(404);
  }

  @Test
  void applyWritesTheImportableJobsAsXxlJobRanThem() {
    String prefix = "xxl-apply-" + RUN + "-";
    String path = PATH + "?apply=true&zone=Asia/Shanghai&idPrefix=" + prefix;
    ApiTestNode.Response answer = node.call("POST", path, dump("apply-" + RUN), ADMIN, TEXT);

    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    assertThat(answer.json().path("applied").asBoolean()).isTrue();
    assertThat(answer.json().at("/jobs/0/kairos/action").asText()).isEqualTo("CREATE");
    assertThat(answer.json().at("/jobs/0/kairos/applied").asBoolean()).isTrue();

    JsonNode job = node.get("/api/v1/jobs/" + id(prefix, 1), VIEWER).json();
    assertThat(job.path("cronDialect").asText()).isEqualTo("QUARTZ");
    assertThat(job.path("schedule").asText()).isEqualTo("0 0 2 ? * 1");
    assertThat(job.path("zone").asText()).isEqualTo("Asia/Shanghai");
    assertThat(job.path("routing").asText()).isEqualTo("SHARDING_BROADCAST");
    assertThat(job.path("block").asText()).isEqualTo("COVER_EARLY");
    assertThat(job.path("misfire").asText()).isEqualTo("FIRE_ONCE_NOW");
    assertThat(job.path("timeoutMs").asLong()).isEqualTo(90_000);
    assertThat(job.path("retryCount").asInt()).isEqualTo(3);
    assertThat(job.path("params").asText()).isEqualTo("{\"it's\":1}");
    assertThat(job.path("childJobIds").toString())
        .as("the GLUE child is not imported, so not referenced")
        .isEqualTo("[\"" + id(prefix, 2) + "\"]");
    ApiTestNode.Response fires =
        node.get("/api/v1/jobs/" + id(prefix, 1) + "/next-fires?count=3", VIEWER);
    assertThat(fires.json().path("fires")).hasSize(3);
    for (JsonNode fire : fires.json().path("fires")) {
      OffsetDateTime at = OffsetDateTime.parse(fire.path("time").asText());
      assertThat(at.atZoneSameInstant(ZoneId.of("Asia/Shanghai")).getDayOfWeek())
          .as("Quartz's day-of-week 1 is Sunday")
          .isEqualTo(DayOfWeek.SUNDAY);
    }
    JsonNode rate = node.get("/api/v1/jobs/" + id(prefix, 2), VIEWER).json();
    assertThat(rate.path("scheduleType").asText()).isEqualTo("FIXED_RATE");
    assertThat(rate.path("schedule").asText()).isEqualTo("60000");
    assertThat(rate.path("enabled").asBoolean()).isFalse();
    assertThat(node.get("/api/v1/jobs/" + id(prefix, 3), VIEWER).status()).isEqualTo(404);

    ApiTestNode.Response again = node.call("POST", path, dump("apply-" + RUN), ADMIN, TEXT);
    assertThat(again.json().at("/jobs/0/kairos/action").asText())
        .as("a second import changes nothing")
        .isEqualTo("UNCHANGED");
  }

  @Test
  void theCliClientWritesThroughTheNodesImport() {
    String prefix = "xxl-cli-" + RUN + "-";
    XxlJobMigration.Plan plan =
        XxlJobMigration.plan(
            SqlDumpReader.read(dump("cli-" + RUN), "it"),
            new MappingOptions(prefix, "UTC", System.currentTimeMillis()));
    KairosImportClient client =
        new KairosImportClient(
            URI.create("http://localhost:" + node.port()),
            ADMIN,
            KairosImportClient.DEFAULT_BATCH_SIZE);

    MigrationReport report = XxlJobMigration.apply(plan, client);

    assertThat(report.applied()).isTrue();
    assertThat(report.jobs().get(0).kairos().applied()).isTrue();
    assertThat(node.get("/api/v1/jobs/" + id(prefix, 1), VIEWER).json().path("zone").asText())
        .isEqualTo("UTC");
  }

  @Test
  void aViewerCannotImportAndAnUnreadableDumpIsRefused() {
    assertThat(node.call("POST", PATH, dump("viewer-" + RUN), VIEWER, TEXT).status())
        .isEqualTo(403);
    ApiTestNode.Response bad =
        node.call("POST", PATH, "INSERT INTO xxl_job_info VALUES ('oops", ADMIN, TEXT);
    assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
    assertThat(bad.json().path("code").asText()).isEqualTo("invalid-dump");
  }
}
