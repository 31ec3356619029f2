package dev.kairos.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.cluster.InvalidTimingException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class KairosNodeApplicationIT {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  /** printf %s "it-admin-token" | sha256sum */
  private static final String ADMIN_TOKEN = "it-admin-token";

  private static final String ADMIN_TOKEN_SHA256 =
      "ce8abc874a4738e9f3e0658557608eea29b59bd3f5a1d184ae1127c96edf3394";
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void healthReportsRedisZookeeperRocketmqAndPostgresUp(EmbeddedInfrastructure infra)
      throws Exception {
    try (ConfigurableApplicationContext node = startNode(infra, Map.of("kairos.node.name", "up"))) {
      JsonNode health = pollHealth(node, h -> "UP".equals(h.path("status").asText()));
      assertThat(health.at("/components/redis/status").asText()).isEqualTo("UP");
      assertThat(health.at("/components/redis/details/ping").asText()).isEqualTo("PONG");
      assertThat(health.at("/components/redis/details/mode").asText()).isEqualTo("standalone");
      assertThat(health.at("/components/zookeeper/status").asText()).isEqualTo("UP");
      assertThat(health.at("/components/zookeeper/details/negotiatedSessionTimeoutMs").asLong())
          .isPositive();
      assertThat(health.at("/components/zookeeper/details/authentication").asText())
          .as("kairos.zookeeper.auth is off by default")
          .isEqualTo("none");
      assertThat(health.at("/components/rocketmq/status").asText()).isEqualTo("UP");
      assertThat(health.at("/components/rocketmq/details/brokers").size()).isPositive();
      assertThat(health.at("/components/postgres/status").asText()).isEqualTo("UP");
      assertThat(health.at("/components/postgres/details/database").asText())
          .isEqualTo("PostgreSQL");
      assertThat(health.at("/components/db").isMissingNode())
          .as("Boot's db indicator is replaced by postgres")
          .isTrue();
      // The embedded server's password is too short to search for; no detail names one either.
      assertThat(health.toString()).doesNotContainIgnoringCase("password");

      assertThat(get(node, "/actuator/prometheus", null).statusCode())
          .as("actuator endpoints other than health need the admin token")
          .isEqualTo(401);
      HttpResponse<String> prometheus = get(node, "/actuator/prometheus", ADMIN_TOKEN);
      assertThat(prometheus.statusCode()).isEqualTo(200);
      assertThat(prometheus.body()).contains("jvm_threads_live_threads");
    }
  }

  @Test
  void nodeStartsWhilePostgresIsDownAndHealthSaysSo(EmbeddedInfrastructure infra) throws Exception {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "no-postgres");
    overrides.put(
        "spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + closedPort() + "/kairos");
    try (ConfigurableApplicationContext node = startNode(infra, overrides)) {
      JsonNode health =
          pollHealth(node, h -> "UP".equals(h.at("/components/zookeeper/status").asText()));
      assertThat(health.path("status").asText()).isEqualTo("DOWN");
      assertThat(health.at("/components/postgres/status").asText()).isEqualTo("DOWN");
      assertThat(health.at("/components/postgres/details/error").asText()).isNotBlank();
      assertThat(health.at("/components/redis/status").asText()).isEqualTo("UP");
      assertThat(health.at("/components/rocketmq/status").asText()).isEqualTo("UP");
    }
  }

  @Test
  void inconsistentTimingRefusesToStartNamingThePropertyAndRule(EmbeddedInfrastructure infra) {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "bad-timing");
    overrides.put("kairos.cluster.heartbeat-interval", "2s");
    assertThatThrownBy(() -> startNode(infra, overrides).close())
        .satisfies(
            e ->
                assertThat(NestedExceptionUtils.getMostSpecificCause(e))
                    .isInstanceOf(InvalidTimingException.class)
                    .hasMessageContaining(
                        "kairos.cluster.heartbeat-interval (2s) must be less than"
                            + " kairos.cluster.leader-timeout / 3 (1s)"));
  }

  @Test
  void invalidNodeNameRefusesToStartNamingTheProperty(EmbeddedInfrastructure infra) {
    assertThatThrownBy(() -> startNode(infra, Map.of("kairos.node.name", "has/slash")).close())
        .hasStackTraceContaining("kairos.node.name");
  }

  /** Properties go on the command line: it outranks the node's application.yml. */
  private static ConfigurableApplicationContext startNode(
      EmbeddedInfrastructure infra, Map<String, String> overrides) {
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", "0");
    properties.put("kairos.api.tokens[0].name", "it-admin");
    properties.put("kairos.api.tokens[0].role", "ADMIN");
    properties.put("kairos.api.tokens[0].sha256", ADMIN_TOKEN_SHA256);
    properties.putAll(overrides);
    String[] args =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    return new SpringApplicationBuilder(KairosNodeApplication.class).run(args);
  }

  private HttpResponse<String> get(ConfigurableApplicationContext node, String path)
      throws IOException, InterruptedException {
    return get(node, path, null);
  }

  private HttpResponse<String> get(ConfigurableApplicationContext node, String path, String token)
      throws IOException, InterruptedException {
    int port = ((WebServerApplicationContext) node).getWebServer().getPort();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .timeout(Duration.ofSeconds(15));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Curator connects in the background, so health is polled until the condition holds. */
  private JsonNode pollHealth(ConfigurableApplicationContext node, Predicate<JsonNode> done) {
    return Poll.until(
        DEADLINE,
        Duration.ofMillis(100),
        "the node's health",
        () -> {
          try {
            return json.readTree(get(node, "/actuator/health").body());
          } catch (Exception e) {
            throw new IllegalStateException("reading the node's health failed", e);
          }
        },
        done,
        "the expected state");
  }

  /** A loopback port nothing listens on (bound, then released). */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
