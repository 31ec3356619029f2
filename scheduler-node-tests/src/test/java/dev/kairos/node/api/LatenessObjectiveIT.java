package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.METRICS;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A lateness objective end to end on one real node (leader, history sync into a real PostgreSQL): a
 * job firing every second for an app that has no executor ends every fire NO_EXECUTOR, so none ever
 * starts; the history shows it, the leader's watch judges the objective breached, raises one alarm
 * and publishes the series, and the job's {@code /lateness} says so on demand.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class LatenessObjectiveIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String JOB = "late-" + RUN;
  private static final String PLAIN = "plain-" + RUN;

  private static ApiTestNode node;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "objective-" + RUN);
    overrides.put("kairos.zookeeper.root-path", "/kairos-objective-" + RUN);
    overrides.put("kairos.cluster.secret", "objective-secret");
    overrides.put("kairos.fire.no-executor-grace", "200ms");
    overrides.put("kairos.objectives.interval", "1s");
    node = ApiTestNode.start(infra, overrides);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  private static String job(String id, String objective) {
    return "{\"id\":\""
        + id
        + "\",\"app\":\"nobody-"
        + RUN
        + "\",\"handler\":\"h\",\"scheduleType\":\"CRON\",\"schedule\":\"* * * * * *\""
        + (objective == null ? "" : ",\"latenessObjective\":" + objective)
        + "}";
  }

  @Test
  void aJobWhoseFiresNeverStartBreachesItsObjectiveAndAlarmsOnce() {
    ApiTestNode.Response created =
        node.post("/api/v1/jobs", job(JOB, "{\"percentile\":50,\"thresholdMs\":1000}"), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.json().path("latenessObjective").path("windowMs").asLong())
        .isEqualTo(3_600_000);
    assertThat(node.post("/api/v1/jobs", job(PLAIN, null), ADMIN).status()).isEqualTo(201);

    MeterRegistry meters = node.context().getBean(MeterRegistry.class);
    await("the leader's watch judging " + JOB + " breached")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> meters.find("kairos.objective.breached").tag("job", JOB).gauge(),
            g -> g != null && g.value() == 1.0);
    assertThat(meters.get("kairos.objective.alarms").counter().count()).isEqualTo(1.0);
    assertThat(meters.find("kairos.objective.breached").tag("job", PLAIN).gauge()).isNull();

    JsonNode lateness = ok("/api/v1/jobs/" + JOB + "/lateness", VIEWER);
    assertThat(lateness.path("verdict").asText()).isEqualTo("BREACHED");
    assertThat(lateness.path("fires").asLong()).isPositive();
    assertThat(lateness.path("neverStarted").asLong()).isEqualTo(lateness.path("fires").asLong());
    assertThat(lateness.has("observedMs")).isFalse();
    assertThat(lateness.path("objective").path("description").asText())
        .isEqualTo("p50 ≤ 1000 ms over 1 h");
    assertThat(ok("/api/v1/jobs/" + PLAIN + "/lateness", VIEWER).path("verdict").asText())
        .isEqualTo("NONE");

    ApiTestNode.Response scrape = node.get("/actuator/prometheus", METRICS);
    assertThat(scrape.body())
        .containsPattern("kairos_objective_breached\\{[^}]*job=\"" + JOB + "\"[^}]*} 1\\.0");

    // Still breached at the following passes: no second alarm.
    double passes = meters.get("kairos.objective.passes").counter().count();
    await("two more passes")
        .atMost(Duration.ofSeconds(10))
        .until(() -> meters.get("kairos.objective.passes").counter().count() >= passes + 2);
    assertThat(meters.get("kairos.objective.alarms").counter().count()).isEqualTo(1.0);
  }

  @Test
  void anInvalidObjectiveIsRefusedNamingTheFieldAndNothingIsCreated() {
    String id = "bad-" + RUN;
    ApiTestNode.Response refused =
        node.post("/api/v1/jobs", job(id, "{\"percentile\":100,\"thresholdMs\":1000}"), ADMIN);
    assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.body()).contains("latenessObjective", "percentile must be in (0, 100)");
    assertThat(node.get("/api/v1/jobs/" + id, ADMIN).status()).isEqualTo(404);
  }

  private static JsonNode ok(String path, String token) {
    ApiTestNode.Response r = node.get(path, token);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.json();
  }
}
