package dev.kairos.migrate.xxljob.kairos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.kairos.migrate.xxljob.report.JobReport.KairosOutcome;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's side of the job-import protocol, against a local HTTP server that records each call
 * and answers as the node's {@code ImportResult} and problem bodies look. The node itself is
 * exercised by scheduler-node's {@code XxlJobMigrationIT}.
 */
class KairosImportClientTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  record Call(String query, String authorization, JsonNode body) {}

  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private HttpServer server;
  private volatile int status = 200;
  private volatile String problem;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/api/v1/job-import",
        exchange -> {
          JsonNode body = JSON.readTree(exchange.getRequestBody());
          String query = exchange.getRequestURI().getQuery();
          calls.add(new Call(query, exchange.getRequestHeaders().getFirst("Authorization"), body));
          boolean dryRun = "dryRun=true".equals(query);
          String answer;
          if (status != 200) {
            answer = problem;
          } else {
            List<Map<String, Object>> items = new ArrayList<>();
            for (JsonNode job : body.path("jobs")) {
              Map<String, Object> item = new LinkedHashMap<>();
              item.put("id", job.path("id").asText());
              item.put("action", "CREATE");
              item.put("applied", !dryRun);
              if (!dryRun) {
                item.put("version", 1);
              }
              items.add(item);
            }
            answer = JSON.writeValueAsString(Map.of("dryRun", dryRun, "items", items));
          }
          byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(status, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private KairosImportClient client(int batchSize) {
    return new KairosImportClient(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), "tok-1", batchSize);
  }

  private static List<Map<String, Object>> jobs(int n) {
    List<Map<String, Object>> jobs = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      jobs.add(Map.of("id", "xxl-" + i, "app", "a", "handler", "h"));
    }
    return jobs;
  }

  @Test
  void applyDryRunsEveryBatchBeforeWritingAny() {
    Map<String, KairosOutcome> outcomes = client(2).apply(jobs(3));

    assertThat(calls)
        .extracting(Call::query)
        .containsExactly("dryRun=true", "dryRun=true", null, null);
    assertThat(calls).extracting(Call::authorization).containsOnly("Bearer tok-1");
    assertThat(calls.get(0).body().path("formatVersion").asInt()).isEqualTo(1);
    assertThat(calls.get(2).body().path("jobs")).hasSize(2);
    assertThat(calls.get(3).body().path("jobs").get(0).path("id").asText()).isEqualTo("xxl-3");
    assertThat(outcomes)
        .containsEntry("xxl-1", new KairosOutcome("CREATE", true, 1L))
        .containsEntry("xxl-3", new KairosOutcome("CREATE", true, 1L));
  }

  @Test
  void aRefusedDryRunWritesNothingAndNamesTheJob() {
    status = 400;
    problem =
        "{\"title\":\"Validation failed\",\"status\":400,\"detail\":\"1 invalid job(s)\","
            + "\"errors\":[{\"field\":\"jobs[1].schedule\",\"message\":\"bad cron\"}]}";
    assertThatThrownBy(() -> client(10).apply(jobs(3)))
        .isInstanceOf(KairosApiException.class)
        .hasMessageContaining("answered 400: 1 invalid job(s)")
        .hasMessageContaining("xxl-2.schedule: bad cron");
    assertThat(calls).extracting(Call::query).containsExactly("dryRun=true");
  }

  @Test
  void noAnswerIsAnErrorNamingTheAddress() {
    server.stop(0);
    assertThatThrownBy(() -> client(10).dryRun(jobs(1)))
        .isInstanceOf(KairosApiException.class)
        .hasMessageContaining("POST http://127.0.0.1:");
  }
}
