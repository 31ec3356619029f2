package dev.kairos.node.cluster.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.KairosNodeApplication;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Leadership between real node processes' Spring contexts: election over ZooKeeper, heartbeats over
 * the HTTP transport with the shared secret, the cluster health component, takeover when the leader
 * leaves.
 */
@RealInfra(redis = RedisMode.STANDALONE, zookeeper = ZkMode.STANDALONE)
class ClusterLeadershipIT {

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String DECLARED_DEAD = "kairos.cluster.followers.declared.dead";
  private static final String SECRET = "it-secret-" + UUID.randomUUID();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();
  private final String root = "/kairos-leadership-it-" + UUID.randomUUID();

  @Test
  void internalEndpointsRefuseCallersWithoutTheSecretOrForAnotherIncarnation(
      EmbeddedInfrastructure infra) throws Exception {
    int port = freePort();
    try (ConfigurableApplicationContext node = start(infra, "secret-a", port)) {
      JsonNode health = pollCluster(port, h -> h.path("isLeader").asBoolean());
      long term = health.path("term").asLong();
      assertThat(term).isPositive();
      assertThat(health.path("leader").asText()).isEqualTo("secret-a");
      assertThat(health.path("members").toString()).contains("secret-a");
      String incarnation = node.getBean(LeadershipManager.class).incarnation();
      String body =
          "{\"term\":"
              + term
              + ",\"leaderId\":\"x\",\"targetIncarnation\":\""
              + incarnation
              + "\"}";

      assertThat(post(port, HttpClusterTransport.HEARTBEAT_PATH, body, null).statusCode())
          .isEqualTo(401);
      assertThat(post(port, HttpClusterTransport.HEARTBEAT_PATH, body, SECRET + "x").statusCode())
          .isEqualTo(401);
      assertThat(post(port, HttpClusterTransport.STILL_HEAR_PATH, body, "").statusCode())
          .isEqualTo(401);
      String otherIncarnation = body.replace(incarnation, "someone-else");
      assertThat(
              post(port, HttpClusterTransport.HEARTBEAT_PATH, otherIncarnation, SECRET)
                  .statusCode())
          .isEqualTo(409);
      HttpResponse<String> ok = post(port, HttpClusterTransport.STILL_HEAR_PATH, body, SECRET);
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(json.readTree(ok.body()).path("hears").asBoolean())
          .as("the leader itself hears the leader of its term")
          .isTrue();
    }
  }

  @Test
  void followerHearsTheLeaderOverHttpAndTakesOverWhenItLeaves(EmbeddedInfrastructure infra)
      throws Exception {
    int leaderPort = freePort();
    int followerPort = freePort();
    ConfigurableApplicationContext leader = start(infra, "node-a", leaderPort);
    long leaderTerm;
    try {
      leaderTerm =
          pollCluster(leaderPort, h -> h.path("isLeader").asBoolean()).path("term").asLong();
    } catch (Exception | Error e) {
      leader.close();
      throw e;
    }
    try (ConfigurableApplicationContext follower = start(infra, "node-b", followerPort)) {
      try {
        JsonNode heard =
            pollCluster(
                followerPort,
                h -> "node-a".equals(h.path("leader").asText()) && h.path("members").size() == 2);
        assertThat(heard.path("isLeader").asBoolean()).isFalse();
        assertThat(heard.path("term").asLong()).isEqualTo(leaderTerm);
        assertThat(heard.path("scanningTerm").asLong()).isZero();
      } finally {
        leader.close();
      }
      JsonNode takeover =
          pollCluster(
              followerPort,
              h -> h.path("isLeader").asBoolean() && h.path("scanningTerm").asLong() > 0);
      assertThat(takeover.path("term").asLong()).isGreaterThan(leaderTerm);
      assertThat(takeover.path("leader").asText()).isEqualTo("node-b");
    }
  }

  @Test
  void aNodeWhoseStartUpIsSlowIsNotDeclaredDeadWhileItStarts(EmbeddedInfrastructure infra)
      throws Exception {
    int leaderPort = freePort();
    int slowPort = freePort();
    try (ConfigurableApplicationContext leader = start(infra, "node-a", leaderPort)) {
      pollCluster(leaderPort, h -> h.path("isLeader").asBoolean());
      // node-b's context stalls after building its cluster node and before its web server
      // answers, for longer than the leader timeout (3 s): a member registered at that point
      // could not answer a heartbeat and was declared dead.
      try (ConfigurableApplicationContext slow =
          start(infra, "node-b", slowPort, stallAfter("clusterNode", Duration.ofSeconds(5)))) {
        pollCluster(leaderPort, h -> h.path("members").size() == 2);
        assertThat(leader.getBean(MeterRegistry.class).counter(DECLARED_DEAD).count())
            .as("followers the leader declared dead")
            .isZero();
        assertThat(slow.isRunning()).isTrue();
      }
    }
  }

  private static ApplicationContextInitializer<ConfigurableApplicationContext> stallAfter(
      String beanName, Duration stall) {
    return context ->
        context
            .getBeanFactory()
            .addBeanPostProcessor(
                new BeanPostProcessor() {
                  @Override
                  public Object postProcessAfterInitialization(Object bean, String name) {
                    if (name.equals(beanName)) {
                      LockSupport.parkNanos(stall.toNanos());
                    }
                    return bean;
                  }
                });
  }

  private ConfigurableApplicationContext start(
      EmbeddedInfrastructure infra, String name, int port) {
    return start(infra, name, port, context -> {});
  }

  private ConfigurableApplicationContext start(
      EmbeddedInfrastructure infra,
      String name,
      int port,
      ApplicationContextInitializer<ConfigurableApplicationContext> initializer) {
    Map<String, String> properties = new LinkedHashMap<>(infra.springProperties());
    properties.put("server.port", Integer.toString(port));
    properties.put("kairos.node.name", name);
    properties.put("kairos.node.internal-address", "127.0.0.1:" + port);
    properties.put("kairos.zookeeper.root-path", root);
    properties.put("kairos.cluster.secret", SECRET);
    String[] args =
        properties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    return new SpringApplicationBuilder(KairosNodeApplication.class)
        .initializers(initializer)
        .run(args);
  }

  private HttpResponse<String> post(int port, String path, String body, String secret)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (secret != null) {
      request.header(ClusterSecret.HEADER, secret);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Polls the cluster health component until the condition holds. */
  private JsonNode pollCluster(int port, Predicate<JsonNode> done) {
    return Poll.until(
        DEADLINE,
        Duration.ofMillis(100),
        "the cluster health of the node on port " + port,
        () -> clusterHealth(port),
        done,
        "the expected state");
  }

  private JsonNode clusterHealth(int port) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/actuator/health/cluster"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return json.readTree(response.body()).path("details");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading cluster health", e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
