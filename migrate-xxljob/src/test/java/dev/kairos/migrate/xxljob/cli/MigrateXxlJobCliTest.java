package dev.kairos.migrate.xxljob.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigrateXxlJobCliTest {

  private static final long NOW = Instant.parse("2026-11-26T00:00:00Z").toEpochMilli();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Map<String, String> env, String... args) {
    return MigrateXxlJobCli.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        env::get,
        NOW);
  }

  private static String dump() throws URISyntaxException {
    return Path.of(
            MigrateXxlJobCliTest.class
                .getClassLoader()
                .getResource("xxljob/xxl_job-dump.sql")
                .toURI())
        .toString();
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aDumpGivesAnOfflineDryRunReport() throws Exception {
    assertThat(run(Map.of(), "--dump=" + dump(), "--zone=Asia/Shanghai")).as(err()).isZero();
    String report = out();
    assertThat(report)
        .contains("xxl-job import (dry run: nothing written)")
        .contains("cron zone: Asia/Shanghai")
        .contains("checked by: offline (core's JobValidator)")
        .contains("jobs: 20, importable: 17, skipped: 3")
        .contains("IMPORT  xxl 1 -> xxl-1  \"Nightly invoices\"")
        .contains("schedule_conf='0 0 2 ? * 1' -> schedule='0 0 2 ? * 1'  (cronDialect QUARTZ")
        .contains("alarm_email='billing-oncall@example.com,alice@example.com' -> alarmEmails=")
        .contains("IMPORT  xxl 12 -> xxl-12  \"Shell backup\"")
        .contains("glue_type='GLUE_SHELL' -> handler='kairos.script'")
        .contains("SKIP  xxl 11 -> xxl-11  \"Groovy cleanup\"")
        .contains("not importable: glue_type GLUE_GROOVY")
        .contains("note: executor group 4 (idle-executor) has no jobs");
  }

  @Test
  void jsonReportCarriesTheSameVerdicts() throws Exception {
    assertThat(run(Map.of(), "--dump=" + dump(), "--json")).as(err()).isZero();
    JsonNode report = new ObjectMapper().readTree(out());
    assertThat(report.path("applied").asBoolean()).isFalse();
    assertThat(report.path("importable").asInt()).isEqualTo(17);
    assertThat(report.path("jobs")).hasSize(20);
    assertThat(report.at("/jobs/0/verdict").asText()).isEqualTo("IMPORT");
    assertThat(report.at("/jobs/10/verdict").asText()).isEqualTo("SKIP");
    assertThat(report.at("/jobs/0/notCarried")).isEmpty();
  }

  @Test
  void applyNeedsAKairosUrlAndAToken() throws Exception {
    assertThat(run(Map.of(), "--dump=" + dump(), "--apply")).isEqualTo(1);
    assertThat(err()).contains("--apply writes through Kairos' API");
    err.reset();
    assertThat(
            run(Map.of(), "--dump=" + dump(), "--kairos-url=http://127.0.0.1:1", "--token-env=T"))
        .isEqualTo(1);
    assertThat(err()).contains("--token-env=T: that environment variable is not set");
  }

  @Test
  void exactlyOneSourceAndKnownOptions() throws Exception {
    assertThat(run(Map.of(), "--dump=" + dump(), "--jdbc-url=jdbc:mariadb://h/x")).isEqualTo(1);
    assertThat(run(Map.of())).isEqualTo(1);
    assertThat(run(Map.of(), "--dump=x", "--password=secret")).isEqualTo(1);
    assertThat(err()).contains("unknown option --password");
    assertThat(run(Map.of(), "--jdbc-url=jdbc:mariadb://h/x")).isEqualTo(1);
    assertThat(err()).contains("--jdbc-url needs --user");
  }

  @Test
  void anUnreadableSourceExitsWithTwo() {
    assertThat(run(Map.of(), "--dump=/nonexistent/xxl.sql")).isEqualTo(2);
    assertThat(err()).contains("xxl-job import failed");
  }

  @Test
  void aPasswordFromTheEnvironmentNeverReachesTheOutput() {
    String secret = "hunter2-secret";
    int status =
        run(
            Map.of("XXL_PW", secret),
            "--jdbc-url=jdbc:mariadb://127.0.0.1:1/xxl_job?connectTimeout=500",
            "--user=xxl",
            "--password-env=XXL_PW");
    assertThat(status).isEqualTo(2);
    assertThat(err()).contains("jdbc:mariadb://127.0.0.1:1/xxl_job").doesNotContain(secret);
    assertThat(out()).doesNotContain(secret);
  }
}
