package dev.kairos.drills.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The admin REST API of one node, as a user scripting thousands of jobs calls it: {@code POST
 * /api/v1/job-import} (at most {@link #MAX_BATCH} jobs per call, the node's default {@code
 * kairos.api.max-batch-size}), {@code POST /api/v1/job-batches/enable} and {@code
 * /api/v1/job-batches/delete}. Loopback only.
 */
final class JobApi {

  /** The node's default {@code kairos.api.max-batch-size}. */
  static final int MAX_BATCH = 1000;

  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();
  private final URI base;
  private final String token;

  JobApi(int port, String adminToken) {
    this.base = URI.create("http://127.0.0.1:" + port);
    this.token = adminToken;
  }

  /**
   * Imports {@code jobs} (each a job as {@code docs/api.md} shows it) in one call; returns how many
   * the node created. Throws on any status but 200 or if a job was not created.
   */
  int importJobs(List<Map<String, Object>> jobs) {
    if (jobs.size() > MAX_BATCH) {
      throw new IllegalArgumentException(jobs.size() + " jobs; at most " + MAX_BATCH + " per call");
    }
    JsonNode result =
        post("/api/v1/job-import", Map.of("formatVersion", 1, "jobs", jobs), "import");
    int created = result.path("created").asInt(-1);
    if (created != jobs.size()) {
      throw new IllegalStateException(
          "import created " + created + " of " + jobs.size() + " jobs: " + abbreviated(result));
    }
    return created;
  }

  /** Enables {@code ids} (at most {@link #MAX_BATCH}); returns how many existed. */
  int enableJobs(List<String> ids) {
    JsonNode result = post("/api/v1/job-batches/enable", Map.of("ids", ids), "batch enable");
    return result.path("succeeded").asInt(-1);
  }

  /** Deletes {@code ids} (at most {@link #MAX_BATCH}); returns how many existed. */
  int deleteJobs(List<String> ids) {
    JsonNode result = post("/api/v1/job-batches/delete", Map.of("ids", ids), "batch delete");
    return result.path("succeeded").asInt(-1);
  }

  private JsonNode post(String path, Object body, String what) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(base.resolve(path))
              .timeout(CALL_TIMEOUT)
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
              .build();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            what + " answered " + response.statusCode() + ": " + abbreviated(response.body()));
      }
      return json.readTree(response.body());
    } catch (IOException e) {
      throw new IllegalStateException(what + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during " + what, e);
    }
  }

  private static String abbreviated(Object body) {
    String text = String.valueOf(body);
    return text.length() > 500 ? text.substring(0, 500) + "..." : text;
  }
}
