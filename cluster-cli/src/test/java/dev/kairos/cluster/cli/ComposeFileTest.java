package dev.kairos.cluster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the top-level docker-compose.yml without Docker: every environment variable it gives a
 * Kairos container binds to a property the node or the executor declares (configuration metadata on
 * this classpath) or fills a placeholder of deploy/node/application-production.yml; every
 * placeholder without a default is given to every node; the addresses the nodes are configured with
 * name services of the file on the ports those services listen on; the start order waits for
 * health; Prometheus scrapes every node on its port.
 */
class ComposeFileTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(:[^}]*)?}");

  private static ComposeFile compose;
  private static ConfigurationMetadata metadata;
  private static List<String> nodes;
  private static List<String> executors;

  @BeforeAll
  static void read() {
    compose = ComposeFile.read(ROOT.resolve("docker-compose.yml"));
    metadata = ConfigurationMetadata.fromClasspath();
    nodes = compose.servicesWithImage("kairos/scheduler-node");
    executors = compose.servicesWithImage("kairos/demo-executor");
  }

  @Test
  void runsThreeNodesTwoExecutorsAndTheInfrastructureTheyNeed() {
    assertThat(metadata.size())
        .as("configuration metadata found on the classpath")
        .isGreaterThan(500);
    assertThat(nodes).hasSize(3);
    assertThat(executors).hasSize(2);
    List<String> redis = compose.servicesWithImage("redis:");
    List<String> redisServers =
        redis.stream().filter(s -> compose.command(s).contains("redis-server")).toList();
    assertThat(redisServers).as("3 masters + 3 replicas").hasSize(6);
    for (String s : redisServers) {
      assertThat(compose.command(s))
          .contains("--cluster-enabled yes")
          .contains("--appendonly yes")
          .contains("--appendfsync everysec");
    }
    assertThat(compose.servicesWithImage("zookeeper:")).hasSize(3);
    assertThat(compose.servicesWithImage("postgres:")).hasSize(1);
    assertThat(compose.servicesWithImage("prom/prometheus")).hasSize(1);
    assertThat(compose.servicesWithImage("grafana/grafana")).hasSize(1);
    List<String> rocketmq = compose.servicesWithImage("apache/rocketmq");
    assertThat(rocketmq.stream().filter(s -> compose.command(s).contains("mqnamesrv"))).hasSize(1);
    assertThat(rocketmq.stream().filter(s -> compose.command(s).contains("mqbroker"))).hasSize(1);
  }

  @Test
  void everyKairosVariableBindsToADeclaredPropertyOrAPlaceholder() throws IOException {
    Set<String> placeholders = placeholders(true).keySet();
    List<String> unknown = new ArrayList<>();
    for (String service : nodes) {
      compose
          .environment(service)
          .keySet()
          .forEach(
              env -> {
                if (metadata.property(env).isEmpty() && !placeholders.contains(env)) {
                  unknown.add(service + ": " + env);
                }
              });
    }
    for (String service : executors) {
      compose
          .environment(service)
          .keySet()
          .forEach(
              env -> {
                if (metadata.property(env).isEmpty()) {
                  unknown.add(service + ": " + env);
                }
              });
    }
    assertThat(unknown).as("variables that bind to nothing").isEmpty();
  }

  @Test
  void everyRequiredPlaceholderIsGivenToEveryNode() throws IOException {
    Set<String> required = new LinkedHashSet<>();
    placeholders(false)
        .forEach(
            (name, hasDefault) -> {
              if (!hasDefault) {
                required.add(name);
              }
            });
    assertThat(required)
        .contains(
            "KAIROS_CLUSTER_SECRET", "KAIROS_ADMIN_TOKEN_SHA256", "KAIROS_METRICS_TOKEN_SHA256");
    Set<String> declaredSecrets = compose.topLevel("secrets").keySet();
    for (String service : nodes) {
      Set<String> given = new LinkedHashSet<>(compose.environment(service).keySet());
      List<String> secrets = compose.strings(service, "secrets");
      assertThat(declaredSecrets).containsAll(secrets);
      given.addAll(secrets);
      assertThat(given).as("what %s gets", service).containsAll(required);
    }
    // Secrets are files the make-secrets script creates; none is written in the compose file.
    String script =
        Files.readString(ROOT.resolve("deploy/compose/make-secrets.sh"), StandardCharsets.UTF_8);
    for (String secret : declaredSecrets) {
      assertThat(
              String.valueOf(ComposeFile.map(compose.topLevel("secrets").get(secret)).get("file")))
          .startsWith("./deploy/compose/secrets/");
      assertThat(script).as("make-secrets.sh creates %s", secret).contains(secret);
    }
  }

  @Test
  void nodeAddressesNameServicesOnTheirPorts() {
    for (String service : nodes) {
      Map<String, String> env = compose.environment(service);
      String port = env.getOrDefault("SERVER_PORT", "8080");
      assertThat(env.get("KAIROS_NODE_INTERNAL_ADDRESS")).isEqualTo(service + ":" + port);
      assertThat(compose.strings(service, "ports")).singleElement().asString().endsWith(":" + port);
      assertThat(String.join(" ", healthcheck(service)))
          .contains("http://127.0.0.1:" + port + "/actuator/health");
      for (URI uri : uris(env.get("KAIROS_REDIS_URIS"))) {
        assertThat(compose.command(uri.getHost())).contains("--port " + uri.getPort());
      }
      for (String hostPort : env.get("KAIROS_ZOOKEEPER_CONNECT_STRING").split(",")) {
        String[] hp = hostPort.split(":");
        assertThat(compose.environment(hp[0]).get("ZOO_SERVERS"))
            .contains(hp[0] + ":2888:3888;" + hp[1]);
      }
      String[] nameServer = env.get("KAIROS_ROCKETMQ_NAME_SERVER").split(":");
      assertThat(compose.command(nameServer[0])).contains("mqnamesrv");
      assertThat(nameServer[1]).isEqualTo("9876"); // the NameServer's default listen port
      String broker =
          compose.servicesWithImage("apache/rocketmq").stream()
              .filter(s -> compose.command(s).contains("mqbroker"))
              .findFirst()
              .orElseThrow();
      assertThat(compose.command(broker)).contains("-n " + nameServer[0] + ":" + nameServer[1]);
      URI jdbc = URI.create(env.get("KAIROS_POSTGRES_URL").substring("jdbc:".length()));
      assertThat(compose.service(jdbc.getHost()).get("image").toString()).startsWith("postgres:");
      assertThat(jdbc.getPort()).isEqualTo(5432);
      assertThat(jdbc.getPath())
          .isEqualTo("/" + compose.environment(jdbc.getHost()).get("POSTGRES_DB"));
    }
    for (String service : executors) {
      Map<String, String> env = compose.environment(service);
      assertThat(env.get("KAIROS_EXECUTOR_REDIS_URIS"))
          .isEqualTo(compose.environment(nodes.get(0)).get("KAIROS_REDIS_URIS"));
      assertThat(env.get("KAIROS_EXECUTOR_NAME_SERVER"))
          .isEqualTo(compose.environment(nodes.get(0)).get("KAIROS_ROCKETMQ_NAME_SERVER"));
    }
  }

  @Test
  void nodesStartAfterTheirInfrastructureIsHealthy() {
    for (String service : nodes) {
      Map<String, String> deps = compose.dependsOn(service);
      assertThat(deps).containsEntry("redis-cluster-init", "service_completed_successfully");
      assertThat(deps.keySet())
          .contains("zookeeper-1", "zookeeper-2", "zookeeper-3", "rocketmq-broker", "postgres");
      deps.forEach(
          (dep, condition) -> {
            if (condition.equals("service_healthy")) {
              assertThat(healthcheck(dep)).as("%s has a health check", dep).isNotEmpty();
            }
          });
    }
  }

  @Test
  void prometheusScrapesEveryNodeOnItsPort() throws IOException {
    String prometheus =
        Files.readString(ROOT.resolve("deploy/prometheus/prometheus.yml"), StandardCharsets.UTF_8);
    for (String service : nodes) {
      String port = compose.environment(service).getOrDefault("SERVER_PORT", "8080");
      assertThat(prometheus).contains("- " + service + ":" + port);
    }
    assertThat(prometheus).contains("metrics_path: /actuator/prometheus");
    // Least privilege: Prometheus holds the METRICS token, never the admin one.
    assertThat(compose.strings("prometheus", "secrets")).containsExactly("kairos-metrics-token");
    assertThat(prometheus).contains("credentials_file: /run/secrets/kairos-metrics-token");
  }

  private static List<String> healthcheck(String service) {
    Object test = ComposeFile.map(compose.service(service).get("healthcheck")).get("test");
    return test instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
  }

  private static List<URI> uris(String commaSeparated) {
    return java.util.Arrays.stream(commaSeparated.split(","))
        .map(String::trim)
        .map(URI::create)
        .toList();
  }

  /** Placeholders of application-production.yml → whether they have a default. */
  private static Map<String, Boolean> placeholders(boolean includeComments) throws IOException {
    Map<String, Boolean> result = new LinkedHashMap<>();
    for (String line :
        Files.readAllLines(
            ROOT.resolve("deploy/node/application-production.yml"), StandardCharsets.UTF_8)) {
      String code = includeComments ? line : line.replaceAll("^\\s*#.*", "");
      Matcher m = PLACEHOLDER.matcher(code);
      while (m.find()) {
        result.merge(m.group(1), m.group(2) != null, (a, b) -> a && b);
      }
    }
    return result;
  }
}
