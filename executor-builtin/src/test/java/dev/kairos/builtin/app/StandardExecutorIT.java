package dev.kairos.builtin.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRocketMq;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.spring.KairosExecutorLifecycle;
import dev.kairos.mq.testing.NodeStandIn;
import dev.kairos.protocol.message.ResultMessage;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TriggerMessage;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The standard executor (kairos-executor), started as its main class starts it, against real Redis
 * and RocketMQ: triggers published the way a scheduler node publishes them run the built-in
 * handlers, which call a real HTTP server and run a real shell, and the results land in Redis and
 * on the result topic.
 */
@RealInfra(rocketMq = true, redis = RedisMode.STANDALONE)
class StandardExecutorIT {

  private final EmbeddedRocketMq mq;
  private final EmbeddedRedis embeddedRedis;
  private final KairosRedis redis;
  private final String app = "std-" + UUID.randomUUID().toString().substring(0, 8);
  private final List<String> hooks = new CopyOnWriteArrayList<>();
  @TempDir Path scripts;
  private ExecutorService serverThreads;
  private HttpServer server;
  private NodeStandIn node;
  private ConfigurableApplicationContext executor;

  StandardExecutorIT(EmbeddedRocketMq mq, EmbeddedRedis redis) {
    this.mq = mq;
    this.embeddedRedis = redis;
    this.redis = KairosRedis.connect(List.of(redis.uri()), false, Duration.ofSeconds(5));
  }

  private Map<String, Object> properties() {
    Map<String, Object> properties = new LinkedHashMap<>(InProcess.EXECUTOR_DEFAULTS);
    properties.put("kairos.executor.redis.uris", embeddedRedis.uri());
    properties.put("kairos.executor.name-server", mq.nameServerAddress());
    properties.put("kairos.executor.broker-cluster", "kairos");
    properties.put("kairos.executor.slot-count", "2");
    properties.put("kairos.executor.shutdown-grace", "5s");
    properties.put("kairos.executor.result-reports", "ALL");
    return properties;
  }

  @BeforeEach
  void start() throws Exception {
    // The scheduler initialises Kairos in Redis; an executor refuses to start before that.
    node = new NodeStandIn(mq, redis, app);
    serverThreads =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "test-hook-server");
              t.setDaemon(true);
              return t;
            });
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(serverThreads);
    server.createContext(
        "/",
        e -> {
          String body = new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          hooks.add(e.getRequestMethod() + " " + e.getRequestURI().getPath() + " " + body);
          int status = e.getRequestURI().getPath().equals("/broken") ? 500 : 200;
          byte[] answer = ("answer-" + status).getBytes(StandardCharsets.UTF_8);
          e.sendResponseHeaders(status, answer.length);
          try (OutputStream out = e.getResponseBody()) {
            out.write(answer);
          }
        });
    server.start();
    Map<String, Object> properties = properties();
    properties.put("kairos.executor.app", app);
    properties.put("kairos.executor.builtin.script.enabled", "true");
    // Loopback is refused unless named: the test's HTTP server is.
    properties.put(
        "kairos.executor.builtin.http.allowed-destinations[0]",
        "127.0.0.1:" + server.getAddress().getPort());
    properties.put("kairos.executor.builtin.script.allowed-interpreters", "sh");
    properties.put("kairos.executor.builtin.script.work-dir", scripts.toString());
    executor = KairosExecutorApplication.start(properties);
    node.consumeResults();
  }

  @AfterEach
  void close() throws InterruptedException {
    if (executor != null) {
      executor.close();
    }
    if (node != null) {
      node.close();
    }
    server.stop(0);
    serverThreads.shutdownNow();
    assertThat(serverThreads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    redis.close();
  }

  /** Records the trigger CLAIMED the way a scheduler node does before it publishes it. */
  private TriggerMessage trigger(String handler, String job, String params) {
    return node.record(node.trigger(job, handler, params, 30_000, 0, 1), "CLAIMED");
  }

  private ResultMessage publishAndAwait(TriggerMessage trigger) throws Exception {
    node.send(trigger, executor.getBean(KairosExecutorLifecycle.class).executor().slot());
    return node.awaitResult(trigger);
  }

  private void awaitRecordedState(TriggerMessage trigger, String state) {
    node.awaitRecordedState(trigger, state);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  @Test
  void httpJobsCallTheirUrlAndEndByStatus() throws Exception {
    assertThat(executor.getBean(KairosExecutorLifecycle.class).handlers())
        .containsOnlyKeys("kairos.http", "kairos.script");
    TriggerMessage ok =
        trigger(
            "kairos.http",
            "hook",
            "{\"method\":\"POST\",\"url\":\""
                + url("/hook")
                + "\",\"headers\":{\"Authorization\":\"Bearer it-secret\"},\"body\":\"ping\"}");

    ResultMessage success = publishAndAwait(ok);

    assertThat(success.status()).as(success.toString()).isEqualTo(ResultStatus.SUCCESS);
    assertThat(success.message())
        .startsWith("HTTP 200 from POST " + url("/hook"))
        .contains("Authorization=***")
        .contains("answer-200")
        .doesNotContain("it-secret");
    assertThat(hooks).containsExactly("POST /hook ping");
    awaitRecordedState(ok, "SUCCESS");

    TriggerMessage broken =
        trigger("kairos.http", "broken", "{\"url\":\"" + url("/broken") + "\"}");
    ResultMessage failure = publishAndAwait(broken);

    assertThat(failure.status()).as(failure.toString()).isEqualTo(ResultStatus.FAIL);
    assertThat(failure.message()).contains("answered HTTP 500").contains("answer-500");
    awaitRecordedState(broken, "FAIL");
  }

  @Test
  void scriptJobsRunWithAnAllowedInterpreterOnly() throws Exception {
    TriggerMessage allowed =
        trigger(
            "kairos.script",
            "echo",
            "{\"interpreter\":\"sh\",\"script\":\"echo from-script $KAIROS_TRIGGER_ID\"}");

    ResultMessage ran = publishAndAwait(allowed);

    assertThat(ran.status()).as(ran.toString()).isEqualTo(ResultStatus.SUCCESS);
    assertThat(ran.message())
        .startsWith("exit code 0")
        .contains("script sha256 ")
        .contains("stdout| from-script " + allowed.triggerId());
    awaitRecordedState(allowed, "SUCCESS");

    TriggerMessage refused =
        trigger("kairos.script", "bash", "{\"interpreter\":\"bash\",\"script\":\"echo no\"}");
    ResultMessage notRun = publishAndAwait(refused);

    assertThat(notRun.status()).as(notRun.toString()).isEqualTo(ResultStatus.FAIL);
    assertThat(notRun.message()).contains("interpreter \"bash\" is not allowed");
    awaitRecordedState(refused, "FAIL");
  }

  @Test
  void theStandardExecutorRefusesToStartWithoutAnApp() {
    assertThatThrownBy(() -> KairosExecutorApplication.start(properties()).close())
        .hasStackTraceContaining("kairos.executor.app must be set");
  }
}
