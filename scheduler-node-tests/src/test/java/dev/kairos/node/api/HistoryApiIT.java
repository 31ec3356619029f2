package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.sync.event.EventParser;
import dev.kairos.sync.event.SyncEvent;
import dev.kairos.sync.history.TriggerHistoryQueries;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.SchemaMigrator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The history endpoints (trigger search, daily report, job statistics) on a node whose history read
 * side reads a real PostgreSQL. The rows are written by the real sync path ({@link SyncStore}) with
 * ids of this run only, so other classes sharing the database do not disturb the counts; the node's
 * own sync is off so nothing else writes meanwhile.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class HistoryApiIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String PAY = "hist-pay-" + RUN;
  private static final String MAIL = "hist-mail-" + RUN;
  private static final String A = "hist-a-" + RUN;
  private static final String B = "hist-b-" + RUN;
  private static final String C = "hist-c-" + RUN;
  private static final long MINUTE = 60_000;
  private static final int FIRES = 12;

  /** First fire: two hours ago, on a whole minute; then one fire per job every 5 minutes. */
  private static final long BASE = (System.currentTimeMillis() / MINUTE - 120) * MINUTE;

  private static ApiTestNode node;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(infra.postgres().jdbcUrl());
    config.setUsername(infra.postgres().username());
    config.setPassword(infra.postgres().password());
    config.setMaximumPoolSize(2);
    try (HikariDataSource dataSource = new HikariDataSource(config)) {
      new SchemaMigrator(dataSource).migrate();
      history(dataSource);
    }
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "history-" + RUN);
    overrides.put("kairos.fire.enabled", "false");
    overrides.put("kairos.cluster.leadership.enabled", "false");
    overrides.put("kairos.sync.enabled", "false");
    overrides.put("kairos.lifecycle.enabled", "false");
    node = ApiTestNode.start(infra, overrides);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  /**
   * {@code A} (app PAY) succeeds in 100 + i ms; {@code B} (app PAY) fails every third fire with
   * "card declined #i", else times out; {@code C} (app MAIL) is running.
   */
  private static void history(HikariDataSource dataSource) throws SQLException {
    job(dataSource, A, PAY);
    job(dataSource, B, PAY);
    job(dataSource, C, MAIL);
    EventParser parser = new EventParser();
    List<SyncEvent> events = new ArrayList<>();
    long seq = 0;
    for (int i = 0; i < FIRES; i++) {
      long fire = BASE + i * 5 * MINUTE;
      events.add(
          trigger(parser, ++seq, A, fire, "SUCCESS", "ok " + RUN, fire + 10, fire + 110 + i));
      boolean declined = i % 3 == 0;
      events.add(
          trigger(
              parser,
              ++seq,
              B,
              fire,
              declined ? "FAIL" : "TIMEOUT",
              declined ? "card declined #" + i + " " + RUN : "timed out " + RUN,
              fire + 5,
              fire + 1_000));
      events.add(trigger(parser, ++seq, C, fire, "RUNNING", null, fire + 1, null));
    }
    new SyncStore(dataSource).apply(events);
    TriggerHistoryQueries queries = new TriggerHistoryQueries(dataSource);
    queries.refreshDailyReport(day(BASE));
    queries.refreshDailyReport(day(BASE + FIRES * 5 * MINUTE));
  }

  private static LocalDate day(long ms) {
    return LocalDate.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC);
  }

  private static void job(HikariDataSource dataSource, String id, String app) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO kairos_job (job_id, shard, app, schedule_version, version)"
                    + " VALUES (?, 0, ?, 1, 1)")) {
      ps.setString(1, id);
      ps.setString(2, app);
      ps.executeUpdate();
    }
  }

  private static SyncEvent trigger(
      EventParser parser,
      long seq,
      String job,
      long fireMs,
      String state,
      String message,
      long startedMs,
      Long endedMs) {
    Map<String, String> body = new HashMap<>();
    body.put("type", "TRIGGER_UPDATED");
    body.put("triggerId", job + ":" + fireMs);
    body.put("jobId", job);
    body.put("state", state);
    body.put("fireMs", Long.toString(fireMs));
    body.put("ms", Long.toString(fireMs + 1));
    body.put("startedMs", Long.toString(startedMs));
    if (message != null) {
      body.put("message", message);
    }
    if (endedMs != null) {
      body.put("endedMs", Long.toString(endedMs));
    }
    return parser.parse(0, (fireMs + 1) + "-" + seq, body);
  }

  private static JsonNode ok(String path) {
    ApiTestNode.Response r = node.get(path, VIEWER);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.json();
  }

  @Test
  void aViewerSearchesTriggersAcrossJobsByAppStateAndTimeNewestFirst() {
    JsonNode page =
        ok(
            "/api/v1/trigger-search?app="
                + PAY
                + "&state=FAIL,TIMEOUT&from="
                + BASE
                + "&to="
                + Instant.ofEpochMilli(BASE + 30 * MINUTE)
                + "&size=4");
    assertThat(page.path("total").asLong()).isEqualTo(6); // B's fires 0..5; A succeeded
    List<String> ids = new ArrayList<>();
    page.path("items").forEach(t -> ids.add(t.path("triggerId").asText()));
    assertThat(ids)
        .containsExactly(
            B + ":" + (BASE + 25 * MINUTE),
            B + ":" + (BASE + 20 * MINUTE),
            B + ":" + (BASE + 15 * MINUTE),
            B + ":" + (BASE + 10 * MINUTE));
    assertThat(page.path("items").get(0).path("source").asText()).isEqualTo("postgresql");

    JsonNode text = ok("/api/v1/trigger-search?text=DECLINED%20%239%20" + RUN);
    assertThat(text.path("total").asLong()).isEqualTo(1);
    assertThat(text.path("items").get(0).path("jobId").asText()).isEqualTo(B);

    JsonNode job = ok("/api/v1/trigger-search?jobId=" + C + "&state=RUNNING&page=1&size=5");
    assertThat(job.path("total").asLong()).isEqualTo(FIRES);
    assertThat(job.path("items")).hasSize(5);
  }

  @Test
  void theDailyReportSumsAnAppsJobsPerDay() {
    JsonNode report =
        ok(
            "/api/v1/reports/daily?from="
                + day(BASE).minusDays(1)
                + "&to="
                + day(BASE).plusDays(1)
                + "&app="
                + PAY);
    long fires = 0;
    long success = 0;
    long failure = 0;
    for (JsonNode row : report.path("apps")) {
      assertThat(row.path("app").asText()).isEqualTo(PAY);
      fires += row.path("fires").asLong();
      success += row.path("success").asLong();
      failure += row.path("failure").asLong();
    }
    assertThat(fires).isEqualTo(2 * FIRES);
    assertThat(success).isEqualTo(FIRES);
    assertThat(failure).isEqualTo(FIRES);
    assertThat(report.path("allJobs")).isNotEmpty();
  }

  @Test
  void jobStatisticsGiveSuccessRateDurationPercentilesAndStates() {
    JsonNode a = ok("/api/v1/jobs/" + A + "/stats?from=" + (BASE - MINUTE));
    assertThat(a.path("total").asLong()).isEqualTo(FIRES);
    assertThat(a.path("successRate").asDouble()).isEqualTo(1.0);
    // Durations 100..111 ms: interpolated p50 = 105.5, p90 = 109.9.
    assertThat(a.path("durations").path("p50Ms").asDouble()).isEqualTo(105.5);
    assertThat(a.path("durations").path("p90Ms").asDouble()).isCloseTo(109.9, within());
    assertThat(a.path("durations").path("maxMs").asLong()).isEqualTo(111);

    JsonNode b = ok("/api/v1/jobs/" + B + "/stats?from=" + (BASE - MINUTE));
    assertThat(b.path("byState").path("FAIL").asLong()).isEqualTo(4);
    assertThat(b.path("byState").path("TIMEOUT").asLong()).isEqualTo(8);
    assertThat(b.path("successRate").asDouble()).isEqualTo(0.0);
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-9);
  }

  record Bad(String path, int status, String code, String field) {
    @Override
    public String toString() {
      return path;
    }
  }

  static Stream<Bad> badInput() {
    String tooLong = "x".repeat(201);
    return Stream.of(
        new Bad("/api/v1/trigger-search?state=BOGUS", 400, "invalid-field", "state"),
        new Bad("/api/v1/trigger-search?state=FAIL,running", 400, "invalid-field", "state"),
        new Bad("/api/v1/trigger-search?from=yesterday", 400, "invalid-field", "from"),
        new Bad("/api/v1/trigger-search?to=2026-13-01T00:00:00Z", 400, "invalid-field", "to"),
        new Bad("/api/v1/trigger-search?from=2000&to=1000", 400, "invalid-field", "to"),
        new Bad("/api/v1/trigger-search?app=no%20spaces", 400, "invalid-field", "app"),
        new Bad("/api/v1/trigger-search?jobId=bad%2Fid", 400, "invalid-field", "jobId"),
        new Bad("/api/v1/trigger-search?text=" + tooLong, 400, "limit-exceeded", "text"),
        new Bad("/api/v1/trigger-search?size=0", 400, "invalid-field", "size"),
        new Bad("/api/v1/trigger-search?size=100000", 400, "limit-exceeded", "size"),
        new Bad("/api/v1/trigger-search?page=-1", 400, "invalid-field", "page"),
        new Bad("/api/v1/trigger-search?page=one", 400, "invalid-field", "page"),
        new Bad("/api/v1/reports/daily?from=2026-02-30", 400, "invalid-field", "from"),
        new Bad("/api/v1/reports/daily?to=26.11.2026", 400, "invalid-field", "to"),
        new Bad("/api/v1/reports/daily?from=2026-11-02&to=2026-11-01", 400, "invalid-field", "to"),
        new Bad(
            "/api/v1/reports/daily?from=2026-01-01&to=2026-11-01", 400, "limit-exceeded", "from"),
        new Bad("/api/v1/reports/daily?app=a%2Bb", 400, "invalid-field", "app"),
        new Bad("/api/v1/jobs/" + A + "/stats?from=soon", 400, "invalid-field", "from"),
        new Bad("/api/v1/jobs/" + A + "/stats?from=5000&to=5000", 400, "invalid-field", "to"),
        new Bad(
            "/api/v1/jobs/" + A + "/stats?from=0&to=" + 40L * 86_400_000,
            400,
            "limit-exceeded",
            "from"),
        new Bad("/api/v1/jobs/bad%20id/stats", 400, "invalid-field", "id"));
  }

  @ParameterizedTest
  @MethodSource("badInput")
  void badInputIsAProblemNamingTheField(Bad bad) {
    ApiTestNode.Response r = node.get(bad.path(), VIEWER);
    assertThat(r.status()).as(r.toString()).isEqualTo(bad.status());
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().path("code").asText()).as(r.toString()).isEqualTo(bad.code());
    assertThat(r.json().path("errors").get(0).path("field").asText())
        .as(r.toString())
        .isEqualTo(bad.field());
  }

  @Test
  void theHistoryNeedsAToken() {
    assertThat(node.get("/api/v1/trigger-search", null).status()).isEqualTo(401);
    assertThat(node.get("/api/v1/reports/daily", null).status()).isEqualTo(401);
    assertThat(node.get("/api/v1/jobs/" + A + "/stats", ADMIN).status()).isEqualTo(200);
  }
}
