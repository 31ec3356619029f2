package dev.kairos.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.devinfra.Poll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class KairosDemoIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @Test
  void demoStartsAHealthyNodeAndStopsEverything() throws Exception {
    Set<Thread> before = liveNonDaemonThreads();
    Path workDir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "demo");

    KairosDemo demo = KairosDemo.start(workDir, "--server.port=0");
    JsonNode health;
    try {
      assertThat(demo.port()).isPositive();
      health = pollHealthUntilUp(demo.healthUrl());
    } catch (RuntimeException | AssertionError e) {
      demo.close();
      throw e;
    }
    for (String component : new String[] {"redis", "zookeeper", "rocketmq", "postgres"}) {
      assertThat(health.at("/components/" + component + "/status").asText())
          .as(component + " in " + health)
          .isEqualTo("UP");
    }
    assertThat(health.at("/components/redis/details/mode").asText()).isEqualTo("standalone");
    assertThat(health.at("/components/rocketmq/details/brokers").size()).isPositive();
    assertThat(health.toString()).doesNotContainIgnoringCase("password");
    assertDemoTokenReadsTheDemoJobs(demo);
    assertDemoViewerTokenReadsButCannotWrite(demo);
    assertDemoOperatorTokenWritesOnlyTheDemoApp(demo);
    assertTheDemoUserSignsInToTheConsole(demo);
    assertTheFaviconNeedsNoToken(demo);

    DemoReport.Snapshot settled;
    try {
      settled = pollUntilFiresSettled(demo.report());
    } catch (RuntimeException | AssertionError e) {
      demo.close();
      throw e;
    }
    assertThat(settled.missed()).as("settled demo fires that never started: " + settled).isZero();
    assertThat(settled.duplicateStarts()).as("trigger ids started twice").isZero();
    assertThat(settled.latenessP50Ms()).as("a fire never starts early").isGreaterThanOrEqualTo(0);

    demo.close();
    demo.close(); // idempotent

    assertThat(demo.context().isActive()).isFalse();
    Poll.until(
        DEADLINE,
        Duration.ofMillis(100),
        "the demo's non-daemon threads to end after close",
        () -> extraThreads(before),
        Set::isEmpty,
        "no thread left");
  }

  /**
   * Waits until at least two seconds' worth of the demo's every-second jobs are past the report's
   * settle time, so "missed" is meaningful.
   */
  private static DemoReport.Snapshot pollUntilFiresSettled(DemoReport report) {
    long wanted = 2L * DemoJobCatalog.FAST_JOBS;
    return Poll.until(
        DEADLINE.plusMillis(DemoReport.SETTLE_MS),
        Duration.ofMillis(500),
        "settled demo fires",
        report::snapshot,
        snapshot -> snapshot.due() >= wanted,
        "at least " + wanted + " fires due and settled");
  }

  /** README's curl examples use the demo's published admin token against the Run command. */
  private static void assertDemoTokenReadsTheDemoJobs(KairosDemo demo) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> jobs =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://localhost:" + demo.port() + "/api/v1/jobs?app=demo&size=100"))
                .header("Authorization", "Bearer " + KairosDemo.DEMO_ADMIN_TOKEN)
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(jobs.statusCode()).as(jobs.body()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(jobs.body()).path("total").asLong())
        .isGreaterThanOrEqualTo(DemoJobCatalog.FAST_JOBS);
  }

  /** README's VIEWER token: it reads the jobs, and a write is refused with 403. */
  private static void assertDemoViewerTokenReadsButCannotWrite(KairosDemo demo) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    String base = "http://localhost:" + demo.port();
    HttpResponse<String> jobs =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/jobs?app=demo&size=100"))
                .header("Authorization", "Bearer " + KairosDemo.DEMO_VIEWER_TOKEN)
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(jobs.statusCode()).as(jobs.body()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(jobs.body()).path("total").asLong())
        .isGreaterThanOrEqualTo(DemoJobCatalog.FAST_JOBS);
    HttpResponse<String> create =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/jobs"))
                .header("Authorization", "Bearer " + KairosDemo.DEMO_VIEWER_TOKEN)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"id\":\"viewer-made\",\"app\":\"demo\",\"handler\":\"demoFast\","
                            + "\"scheduleType\":\"API\"}"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(create.statusCode()).as(create.body()).isEqualTo(403);
  }

  /** README's OPERATOR token: it creates in the app demo and nowhere else, and never pauses. */
  private static void assertDemoOperatorTokenWritesOnlyTheDemoApp(KairosDemo demo)
      throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    String base = "http://localhost:" + demo.port();
    java.util.function.Function<String, HttpResponse<String>> create =
        app -> {
          try {
            return http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/jobs"))
                    .header("Authorization", "Bearer " + KairosDemo.DEMO_OPERATOR_TOKEN)
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"id\":\"operator-made-"
                                + app
                                + "\",\"app\":\""
                                + app
                                + "\",\"handler\":\"demoFast\",\"scheduleType\":\"API\"}"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    HttpResponse<String> own = create.apply("demo");
    assertThat(own.statusCode()).as(own.body()).isEqualTo(201);
    HttpResponse<String> foreign = create.apply("payments");
    assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
    HttpResponse<String> pause =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/cluster/pause"))
                .header("Authorization", "Bearer " + KairosDemo.DEMO_OPERATOR_TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(pause.statusCode()).as(pause.body()).isEqualTo(403);
  }

  /** README's console user: a name and a password, an OPERATOR of the app demo. */
  private static void assertTheDemoUserSignsInToTheConsole(KairosDemo demo) throws Exception {
    HttpClient http =
        HttpClient.newBuilder()
            .cookieHandler(new java.net.CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    String base = "http://localhost:" + demo.port();
    String form =
        http.send(
                HttpRequest.newBuilder(URI.create(base + "/console/sign-in"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    java.util.regex.Matcher csrf =
        java.util.regex.Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(form);
    assertThat(csrf.find()).as(form).isTrue();
    String body =
        "name="
            + KairosDemo.DEMO_USER
            + "&token="
            + KairosDemo.DEMO_USER_PASSWORD
            + "&_csrf="
            + java.net.URLEncoder.encode(csrf.group(1), java.nio.charset.StandardCharsets.UTF_8);
    HttpResponse<String> signedIn =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/console/sign-in"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(signedIn.headers().firstValue("Location"))
        .hasValueSatisfying(l -> assertThat(l).endsWith("/console"));
    String jobs =
        http.send(
                HttpRequest.newBuilder(URI.create(base + "/console/jobs"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(jobs).contains(KairosDemo.DEMO_USER + " (OPERATOR)").contains("demo-fast-");
  }

  /** Every console page asks for /favicon.ico; it must not be the API's 401. */
  private static void assertTheFaviconNeedsNoToken(KairosDemo demo) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<byte[]> icon =
        http.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + demo.port() + "/favicon.ico"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(icon.statusCode()).isEqualTo(200);
    assertThat(icon.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).contains("icon"));
  }

  /** Health is polled because Curator and the RocketMQ route may need a moment after start. */
  private static JsonNode pollHealthUntilUp(String url) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    ObjectMapper json = new ObjectMapper();
    return Poll.until(
        DEADLINE,
        Duration.ofMillis(200),
        "the demo's health at " + url,
        () -> {
          try {
            HttpResponse<String> response =
                http.send(
                    HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? json.readTree(response.body()) : null;
          } catch (Exception e) {
            throw new IllegalStateException("reading " + url + " failed", e);
          }
        },
        health -> health != null && "UP".equals(health.path("status").asText()),
        "HTTP 200 with status UP");
  }

  private static Set<Thread> liveNonDaemonThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && !t.isDaemon())
        .collect(Collectors.toSet());
  }

  private static Set<String> extraThreads(Set<Thread> before) {
    return liveNonDaemonThreads().stream()
        .filter(t -> !before.contains(t))
        .map(Thread::getName)
        .collect(Collectors.toSet());
  }
}
