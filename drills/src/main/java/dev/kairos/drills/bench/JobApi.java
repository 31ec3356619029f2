package dev.kairos.drills.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
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
 * /api/v1/job-batches/delete}; and its reads, timed ({@link #get}, {@link #download}). Loopback
 * only. Thread-safe: import calls may run from several threads at once.
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

  /**
   * One GET as measured: its status, body bytes, wall time from sending to the body's last byte,
   * and the parsed body ({@link #get} with status 200; null otherwise and for {@link #download}).
   */
  record Fetched(int status, long bytes, double millis, JsonNode json) {}

  /** GETs {@code pathAndQuery} (e.g. {@code /api/v1/jobs?size=50}) and parses its JSON body. */
  Fetched get(String pathAndQuery) {
    long began = System.nanoTime();
    HttpResponse<byte[]> response =
        send(request(pathAndQuery, CALL_TIMEOUT), HttpResponse.BodyHandlers.ofByteArray());
    double millis = (System.nanoTime() - began) / 1e6;
    try {
      JsonNode body = response.statusCode() == 200 ? json.readTree(response.body()) : null;
      return new Fetched(response.statusCode(), response.body().length, millis, body);
    } catch (IOException e) {
      throw new IllegalStateException("GET " + pathAndQuery + " answered unreadable JSON", e);
    }
  }

  /**
   * GETs {@code pathAndQuery} and counts its body's bytes without keeping them (an export of a
   * million jobs is hundreds of MB), within {@code timeout}.
   */
  Fetched download(String pathAndQuery, Duration timeout) {
    long began = System.nanoTime();
    HttpResponse<InputStream> response =
        send(request(pathAndQuery, timeout), HttpResponse.BodyHandlers.ofInputStream());
    long bytes = 0;
    byte[] buffer = new byte[1 << 16];
    try (InputStream body = response.body()) {
      int n;
      while ((n = body.read(buffer)) > 0) {
        bytes += n;
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "GET " + pathAndQuery + " broke off after " + bytes + " B", e);
    }
    return new Fetched(response.statusCode(), bytes, (System.nanoTime() - began) / 1e6, null);
  }

  private HttpRequest request(String pathAndQuery, Duration timeout) {
    return HttpRequest.newBuilder(base.resolve(pathAndQuery))
        .timeout(timeout)
        .header("Authorization", "Bearer " + token)
        .GET()
        .build();
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    try {
      return http.send(request, handler);
    } catch (IOException e) {
      throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during " + request.uri(), e);
    }
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
