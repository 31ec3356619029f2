package dev.kairos.builtin.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.kairos.builtin.BuiltinRunFailedException;
import dev.kairos.builtin.Contexts;
import dev.kairos.builtin.InvalidParamsException;
import dev.kairos.devinfra.Poll;
import dev.kairos.mq.executor.JobContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The HTTP handler against a real HTTP server on loopback (the JDK's, on an ephemeral port). */
class HttpCallHandlerTest {

  private static final Duration DEADLINE = Duration.ofSeconds(10);

  /** What the server saw of one request. */
  record Seen(String method, String path, Map<String, List<String>> headers, String body) {}

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final CountDownLatch releaseSlow = new CountDownLatch(1);
  private ExecutorService serverThreads;
  private HttpServer server;
  private HttpCallHandler handler;
  private String base;

  @BeforeEach
  void startServer() throws IOException {
    serverThreads =
        Executors.newFixedThreadPool(
            4,
            r -> {
              Thread t = new Thread(r, "test-http-server");
              t.setDaemon(true);
              return t;
            });
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(serverThreads);
    server.createContext("/ok", e -> answer(e, 200, "{\"closed\":42}"));
    server.createContext("/down", e -> answer(e, 503, "maintenance until 10:00"));
    server.createContext("/missing", e -> answer(e, 404, "no such thing"));
    server.createContext("/big", e -> answer(e, 200, "x".repeat(200_000)));
    server.createContext("/moved", e -> redirectTo(e, 302, "/ok?moved=1"));
    server.createContext("/see-other", e -> redirectTo(e, 303, "/ok"));
    server.createContext("/keep", e -> redirectTo(e, 307, "/ok"));
    server.createContext("/loop", e -> redirectTo(e, 302, "/loop"));
    server.createContext("/to-metadata", e -> redirectTo(e, 302, "http://169.254.169.254/latest"));
    server.createContext(
        "/to-localhost",
        e -> redirectTo(e, 302, "http://localhost:" + server.getAddress().getPort() + "/ok"));
    server.createContext(
        "/slow",
        e -> {
          record(e);
          try {
            releaseSlow.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
          }
          answerOnly(e, 200, "late");
        });
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
    // Loopback is refused by default: this test server is named in the allow-list, with the
    // name "localhost" that the cross-origin redirect test uses.
    handler =
        new HttpCallHandler(
            new HttpCallSettings(
                Duration.ofSeconds(5),
                100,
                DestinationPolicy.allowing(List.of("127.0.0.1", "localhost"))));
  }

  @AfterEach
  void stopServer() throws InterruptedException {
    releaseSlow.countDown();
    handler.close();
    server.stop(0);
    serverThreads.shutdownNow();
    assertThat(serverThreads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  private void answer(HttpExchange e, int status, String body) throws IOException {
    record(e);
    answerOnly(e, status, body);
  }

  private void record(HttpExchange e) throws IOException {
    String body = new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    seen.add(
        new Seen(
            e.getRequestMethod(),
            e.getRequestURI().toString(),
            Map.copyOf(e.getRequestHeaders()),
            body));
  }

  private void redirectTo(HttpExchange e, int status, String location) throws IOException {
    record(e);
    e.getResponseHeaders().add("Location", location);
    answerOnly(e, status, "");
  }

  private static void answerOnly(HttpExchange e, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    e.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = e.getResponseBody()) {
      out.write(bytes);
    } catch (IOException closedByClient) {
      // The handler stops reading after its excerpt.
    }
  }

  private JobContext run(String params) throws Exception {
    JobContext context = Contexts.of(HttpCallHandler.NAME, params);
    handler.execute(context);
    return context;
  }

  @Test
  void aSuccessfulCallSendsTheRequestAndLogsStatusAndBody() throws Exception {
    JobContext context =
        run(
            "{\"method\":\"post\",\"url\":\""
                + base
                + "/ok?day=1\",\"headers\":{\"X-Request\":\"r-1\"},\"body\":{\"day\":\"today\"}}");

    assertThat(seen).hasSize(1);
    Seen request = seen.get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/ok?day=1");
    assertThat(request.body()).isEqualTo("{\"day\":\"today\"}");
    assertThat(request.headers().get("X-request")).containsExactly("r-1");
    assertThat(request.headers().get("Content-type")).containsExactly("application/json");
    assertThat(context.log().text())
        .startsWith("HTTP 200 from POST " + base + "/ok?day=1 in ")
        .contains("headers {X-Request=r-1, Content-Type=application/json}")
        .contains("HTTP 200 in ")
        .contains("body of 13 bytes: \"{\"closed\":42}\"");
  }

  @Test
  void aStatusOutsideTheSuccessSetFailsTheRunWithStatusAndBodyInTheLog() {
    JobContext context = Contexts.of(HttpCallHandler.NAME, "{\"url\":\"" + base + "/down\"}");

    assertThatThrownBy(() -> handler.execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessage("GET " + base + "/down answered HTTP 503, not a success status (2xx)");
    assertThat(context.log().text()).contains("HTTP 503 in ").contains("maintenance until 10:00");
  }

  @Test
  void theSuccessSetIsTheJobsChoice() throws Exception {
    run("{\"url\":\"" + base + "/missing\",\"successStatus\":[\"2xx\",404]}");
    run("{\"url\":\"" + base + "/missing\",\"successStatus\":\"400-404\"}");

    JobContext onlyCreated =
        Contexts.of(HttpCallHandler.NAME, "{\"url\":\"" + base + "/ok\",\"successStatus\":201}");
    assertThatThrownBy(() -> handler.execute(onlyCreated))
        .hasMessageContaining("answered HTTP 200, not a success status (201)");
    assertThat(seen).hasSize(3);
  }

  @Test
  void noCompleteResponseWithinTheTimeoutFailsTheRunInTime() {
    JobContext context =
        Contexts.of(HttpCallHandler.NAME, "{\"url\":\"" + base + "/slow\",\"timeoutMs\":300}");
    long start = System.nanoTime();

    assertThatThrownBy(() -> handler.execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessage("GET " + base + "/slow: no complete response within 300 ms");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(seen).hasSize(1);
  }

  @Test
  void anInterruptedRunStopsWaitingAndCancelsTheCall() throws Exception {
    JobContext context = Contexts.of(HttpCallHandler.NAME, "{\"url\":\"" + base + "/slow\"}");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread worker =
        new Thread(
            () -> {
              try {
                handler.execute(context);
              } catch (Throwable t) {
                thrown.set(t);
              }
            },
            "test-http-worker");
    worker.start();
    Poll.until(DEADLINE, "the request to reach the server", () -> seen.size() == 1);

    worker.interrupt();
    worker.join(DEADLINE.toMillis());

    assertThat(worker.isAlive()).as("the handler returned").isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
  }

  @Test
  void badParamsFailTheRunNamingTheFieldAndSendNothing() {
    Map<String, String> cases =
        Map.ofEntries(
            Map.entry("", "params are empty"),
            Map.entry("not json", "params are not valid JSON"),
            Map.entry("[1]", "params must be a JSON object"),
            Map.entry("{\"method\":\"GET\"}", "field \"url\": is required"),
            Map.entry("{\"url\":\"ftp://x/y\"}", "field \"url\": must be an absolute http://"),
            Map.entry("{\"url\":\"/relative\"}", "field \"url\": must be an absolute http://"),
            Map.entry("{\"url\":\"http://h\",\"method\":\"BREW\"}", "field \"method\": must be"),
            Map.entry("{\"url\":\"http://h\",\"timeoutMs\":0}", "field \"timeoutMs\""),
            Map.entry("{\"url\":\"http://h\",\"timeoutMs\":\"5s\"}", "field \"timeoutMs\""),
            Map.entry("{\"url\":\"http://h\",\"timeoutMs\":604800001}", "in 1..604800000"),
            Map.entry("{\"url\":\"http://h\",\"successStatus\":\"2xxx\"}", "\"successStatus\""),
            Map.entry("{\"url\":\"http://h\",\"successStatus\":[700]}", "outside 100..599"),
            Map.entry("{\"url\":\"http://h\",\"headers\":[\"a\"]}", "field \"headers\""),
            Map.entry("{\"url\":\"http://h\",\"headers\":{\"Host\":\"evil\"}}", "\"headers\""),
            Map.entry("{\"url\":\"http://h\",\"header\":{}}", "field \"header\": unknown field"));
    cases.forEach(
        (params, expected) ->
            assertThatThrownBy(() -> run(params))
                .as(params)
                .isInstanceOf(InvalidParamsException.class)
                .hasMessageStartingWith("invalid params of kairos.http")
                .hasMessageContaining(expected));
    assertThat(seen).isEmpty();
  }

  @Test
  void secretsInHeadersAndTheUrlAreSentButNeverLogged() throws Exception {
    Logger jobLogger = (Logger) LoggerFactory.getLogger("kairos.job." + HttpCallHandler.NAME);
    ListAppender<ILoggingEvent> slf4j = new ListAppender<>();
    slf4j.start();
    jobLogger.addAppender(slf4j);
    JobContext context;
    try {
      context =
          run(
              "{\"url\":\"http://alice:pw-in-url@127.0.0.1:"
                  + server.getAddress().getPort()
                  + "/ok?access_token=tok-in-query&day=1\",\"headers\":{"
                  + "\"Authorization\":\"Bearer sekrit-bearer\","
                  + "\"X-Api-Token\":\"sekrit-token\","
                  + "\"X-Client-Secret\":\"sekrit-secret\","
                  + "\"DB-PASSWORD\":\"sekrit-password\","
                  + "\"Cookie\":\"session=sekrit-cookie\","
                  + "\"X-Trace\":\"visible-trace\"}}");
    } finally {
      jobLogger.detachAppender(slf4j);
    }

    assertThat(seen.get(0).headers().get("Authorization")).containsExactly("Bearer sekrit-bearer");
    assertThat(seen.get(0).headers().get("X-api-token")).containsExactly("sekrit-token");
    String logged =
        context.log().text()
            + "\n"
            + String.join(
                "\n", slf4j.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
    assertThat(slf4j.list).isNotEmpty();
    assertThat(logged)
        .doesNotContain("sekrit")
        .doesNotContain("pw-in-url")
        .doesNotContain("tok-in-query")
        .contains("Authorization=***")
        .contains("X-Api-Token=***")
        .contains("X-Client-Secret=***")
        .contains("DB-PASSWORD=***")
        .contains("Cookie=***")
        .contains("X-Trace=visible-trace")
        .contains("http://***@127.0.0.1:")
        .contains("access_token=***&day=1");
  }

  @Test
  void onlyTheFirstBytesOfALargeBodyAreReadAndLogged() throws Exception {
    JobContext context = run("{\"url\":\"" + base + "/big\"}");

    assertThat(context.log().text())
        .containsPattern("body of at least \\d+ bytes, starts \"x{100}\"")
        .doesNotContain("x".repeat(101));
  }

  @Test
  void closeStopsTheHandlersThreads() throws Exception {
    run("{\"url\":\"" + base + "/ok\"}");

    handler.close();
    handler.close();

    Poll.until(
        DEADLINE,
        "kairos-http- threads to end",
        () ->
            Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("kairos-http-") && t.isAlive()));
    assertThatThrownBy(() -> run("{\"url\":\"" + base + "/ok\"}")).hasMessageContaining("closed");
  }

  @Test
  void byDefaultLoopbackIsRefusedAndNothingIsSent() {
    try (HttpCallHandler publicOnly = new HttpCallHandler(HttpCallSettings.defaults())) {
      JobContext context = Contexts.of(HttpCallHandler.NAME, "{\"url\":\"" + base + "/ok\"}");

      assertThatThrownBy(() -> publicOnly.execute(context))
          .isInstanceOf(BuiltinRunFailedException.class)
          .hasMessageContaining("GET " + base + "/ok: refused: destination 127.0.0.1:")
          .hasMessageContaining("a loopback address")
          .hasMessageContaining(DestinationPolicy.PROPERTY);
    }
    assertThat(seen).isEmpty();
  }

  @Test
  void aRedirectIsFollowedOnlyWhenAskedAndAfterAPostA302BecomesAGet() throws Exception {
    JobContext notFollowed =
        Contexts.of(HttpCallHandler.NAME, "{\"url\":\"" + base + "/moved\",\"successStatus\":302}");
    handler.execute(notFollowed);
    assertThat(seen).extracting(Seen::path).containsExactly("/moved");

    JobContext followed =
        run(
            "{\"method\":\"POST\",\"url\":\""
                + base
                + "/moved\",\"body\":\"x\",\"followRedirects\":true}");

    assertThat(seen).extracting(Seen::path).containsExactly("/moved", "/moved", "/ok?moved=1");
    assertThat(seen.get(2).method()).isEqualTo("GET");
    assertThat(seen.get(2).body()).isEmpty();
    assertThat(followed.log().text())
        .contains("HTTP 302 redirects to GET " + base + "/ok?moved=1")
        .contains("HTTP 200 in ");
  }

  @Test
  void a307KeepsTheMethodAndBody() throws Exception {
    run(
        "{\"method\":\"PUT\",\"url\":\""
            + base
            + "/keep\",\"body\":\"payload\",\"followRedirects\":true}");

    assertThat(seen).extracting(Seen::method).containsExactly("PUT", "PUT");
    assertThat(seen.get(1).body()).isEqualTo("payload");
  }

  @Test
  void aRedirectToADestinationTheExecutorMayNotCallFailsTheRunBeforeCallingIt() {
    JobContext context =
        Contexts.of(
            HttpCallHandler.NAME,
            "{\"url\":\"" + base + "/to-metadata\",\"followRedirects\":true}");

    assertThatThrownBy(() -> handler.execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessageContaining("HTTP 302 redirects to http://169.254.169.254/latest: refused:")
        .hasMessageContaining("is not in " + DestinationPolicy.PROPERTY);
    assertThat(seen).extracting(Seen::path).containsExactly("/to-metadata");
  }

  @Test
  void credentialsAreNotCarriedToAnotherOrigin() throws Exception {
    run(
        "{\"url\":\""
            + base
            + "/to-localhost\",\"followRedirects\":true,"
            + "\"headers\":{\"Authorization\":\"Bearer s3cret\",\"X-Request\":\"r-2\"}}");

    assertThat(seen).hasSize(2);
    assertThat(seen.get(0).headers().get("Authorization")).containsExactly("Bearer s3cret");
    assertThat(seen.get(1).headers()).doesNotContainKey("Authorization");
    assertThat(seen.get(1).headers().get("X-request")).containsExactly("r-2");
  }

  @Test
  void aRedirectLoopEndsAfterTheLimit() {
    JobContext context =
        Contexts.of(
            HttpCallHandler.NAME, "{\"url\":\"" + base + "/loop\",\"followRedirects\":true}");

    assertThatThrownBy(() -> handler.execute(context))
        .isInstanceOf(BuiltinRunFailedException.class)
        .hasMessageContaining("more than " + HttpCallHandler.MAX_REDIRECTS + " redirects");
    assertThat(seen).hasSize(HttpCallHandler.MAX_REDIRECTS + 1);
  }
}
