package dev.kairos.builtin.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.kairos.builtin.script.ScriptHandler;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.KairosNodeApplication;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * End to end: a real scheduler node (Redis, ZooKeeper, RocketMQ, PostgreSQL) fires a {@code
 * kairos.http} job, created through the admin API, to the standard executor, which calls a real
 * HTTP server; and a VIEWER token can neither trigger nor edit a {@code kairos.script} job.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class HttpJobThroughKairosIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String ADMIN = "builtin-it-admin";
  private static final String VIEWER = "builtin-it-viewer";

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient api =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<String> hooks = new CopyOnWriteArrayList<>();
  private final String app = "e2e-" + UUID.randomUUID().toString().substring(0, 8);

  @Test
  void aJobFiredByKairosCallsItsUrlAndAViewerCannotRunAScript(EmbeddedInfrastructure infra)
      throws Exception {
    ExecutorService serverThreads = Executors.newFixedThreadPool(2, r -> daemon(r));
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(serverThreads);
    server.createContext(
        "/",
        e -> {
          hooks.add(
              e.getRequestMethod()
                  + " "
                  + e.getRequestURI()
                  + " "
                  + new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
          e.sendResponseHeaders(200, answer.length);
          try (OutputStream out = e.getResponseBody()) {
            out.write(answer);
          }
        });
    server.start();
    Map<String, String> nodeProperties = new LinkedHashMap<>(infra.springProperties());
    nodeProperties.put("server.port", "0");
    nodeProperties.put("kairos.node.name", "builtin-e2e");
    nodeProperties.put("kairos.api.tokens[0].name", "it-admin");
    nodeProperties.put("kairos.api.tokens[0].role", "ADMIN");
    nodeProperties.put("kairos.api.tokens[0].sha256", sha256(ADMIN));
    nodeProperties.put("kairos.api.tokens[1].name", "it-viewer");
    nodeProperties.put("kairos.api.tokens[1].role", "VIEWER");
    nodeProperties.put("kairos.api.tokens[1].sha256", sha256(VIEWER));
    String[] args =
        nodeProperties.entrySet().stream()
            .map(e -> "--" + e.getKey() + "=" + e.getValue())
            .toArray(String[]::new);
    try (ConfigurableApplicationContext node =
        new SpringApplicationBuilder(KairosNodeApplication.class)
            .registerShutdownHook(false)
            .run(args)) {
      String base =
          "http://127.0.0.1:" + ((WebServerApplicationContext) node).getWebServer().getPort();
      Map<String, Object> executorProperties = new LinkedHashMap<>(InProcess.EXECUTOR_DEFAULTS);
      executorProperties.putAll(infra.springProperties());
      executorProperties.put("kairos.executor.app", app);
      executorProperties.put("kairos.executor.shutdown-grace", "5s");
      // Loopback is refused unless named: this executor may call the test's hook server only.
      executorProperties.put(
          "kairos.executor.builtin.http.allowed-destinations[0]",
          "127.0.0.1:" + server.getAddress().getPort());
      // The executor starts after the node, which initialises the cluster metadata in Redis.
      try (ConfigurableApplicationContext executor =
          KairosExecutorApplication.start(executorProperties)) {
        run(base, server.getAddress().getPort());
      }
    } finally {
      server.stop(0);
      serverThreads.shutdownNow();
      assertThat(serverThreads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  private void run(String base, int hookPort) throws Exception {
    String hook = "http://127.0.0.1:" + hookPort + "/hooks/" + app;
    String httpParams =
        json.writeValueAsString(
            Map.of(
                "method",
                "POST",
                "url",
                hook,
                "headers",
                Map.of("Authorization", "Bearer e2e-secret"),
                "body",
                "fired"));
    String job = app + "-http";
    // A cron firing every second: the first fire is the scheduler's, not a trigger-now.
    HttpResponse<String> created =
        call(
            base,
            "POST",
            "/api/v1/jobs",
            ADMIN,
            Map.of(
                "id",
                job,
                "app",
                app,
                "handler",
                "kairos.http",
                "scheduleType",
                "CRON",
                "schedule",
                "* * * * * *",
                "params",
                httpParams,
                "timeoutMs",
                30_000));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    Poll.until(DEADLINE, "a scheduled fire of " + job + " to call " + hook, () -> !hooks.isEmpty());
    assertThat(hooks.get(0)).isEqualTo("POST /hooks/" + app + " fired");
    AtomicReference<JsonNode> succeeded = new AtomicReference<>();
    Poll.until(
        DEADLINE,
        Duration.ofMillis(200),
        "a SUCCESS trigger of " + job,
        () -> {
          JsonNode page =
              read(call(base, "GET", "/api/v1/jobs/" + job + "/triggers", VIEWER, null));
          for (JsonNode trigger : page.path("items")) {
            if ("SUCCESS".equals(trigger.path("state").asText())) {
              succeeded.set(trigger);
              return true;
            }
          }
          return false;
        });
    JsonNode trigger =
        read(
            call(
                base,
                "GET",
                "/api/v1/triggers/" + succeeded.get().path("triggerId").asText(),
                VIEWER,
                null));
    assertThat(trigger.path("message").asText())
        .startsWith("HTTP 200 from POST " + hook)
        .contains("Authorization=***")
        .doesNotContain("e2e-secret");
    assertThat(call(base, "POST", "/api/v1/jobs/" + job + "/disable", ADMIN, null).statusCode())
        .isEqualTo(200);

    // A script job, created disabled by an ADMIN: a VIEWER can neither run nor change it.
    String script = app + "-script";
    Map<String, Object> scriptJob =
        Map.of(
            "id",
            script,
            "app",
            app,
            "handler",
            ScriptHandler.NAME,
            "params",
            "{\"interpreter\":\"sh\",\"script\":\"echo hi\"}",
            "enabled",
            false);
    assertThat(call(base, "POST", "/api/v1/jobs", ADMIN, scriptJob).statusCode()).isEqualTo(201);
    assertThat(call(base, "POST", "/api/v1/jobs/" + script + "/trigger", VIEWER, null).statusCode())
        .isEqualTo(403);
    assertThat(call(base, "POST", "/api/v1/jobs/" + script + "/enable", VIEWER, null).statusCode())
        .isEqualTo(403);
    assertThat(call(base, "PUT", "/api/v1/jobs/" + script, VIEWER, scriptJob).statusCode())
        .isEqualTo(403);
    JsonNode history =
        read(call(base, "GET", "/api/v1/jobs/" + script + "/triggers", VIEWER, null));
    assertThat(history.path("items")).as(history.toString()).isEmpty();
  }

  private HttpResponse<String> call(
      String base, String method, String path, String token, Object body) {
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(base + path))
              .timeout(Duration.ofSeconds(10))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .method(
                  method,
                  body == null
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
      return api.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    }
  }

  private JsonNode read(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    try {
      return json.readTree(response.body());
    } catch (Exception e) {
      throw new IllegalStateException(response.body(), e);
    }
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "test-e2e-hook-server");
    thread.setDaemon(true);
    return thread;
  }

  private static String sha256(String token) {
    return ScriptHandler.sha256(token.getBytes(StandardCharsets.UTF_8));
  }
}
