package dev.kairos.cluster.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.devinfra.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The admin REST API of one node, as the deploy tests use it: create a cron job, wait for a trigger
 * of it that ended SUCCESS. Every wait has a deadline.
 */
final class JobApiClient {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final String baseUrl;
  private final String token;

  JobApiClient(String host, int port, String token) {
    this.baseUrl = "http://" + host + ":" + port;
    this.token = token;
  }

  /** Creates a job of the sample executor's {@code demoFast} handler firing every second. */
  HttpResponse<String> createEverySecondJob(String jobId, String app) {
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/jobs"))
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"id\":\""
                        + jobId
                        + "\",\"app\":\""
                        + app
                        + "\",\"handler\":\"demoFast\","
                        + "\"scheduleType\":\"CRON\",\"schedule\":\"* * * * * *\"}")));
  }

  /**
   * Waits for a SUCCESS trigger of {@code jobId} scheduled after {@code afterMs}; returns its fire
   * time.
   */
  long awaitSuccess(String jobId, long afterMs, Duration timeout) {
    AtomicReference<Long> found = new AtomicReference<>();
    Poll.until(
        timeout,
        "a SUCCESS trigger of job " + jobId + " scheduled after " + afterMs + " on " + baseUrl,
        () -> {
          lastSuccess(jobId, afterMs).ifPresent(found::set);
          return found.get() != null;
        });
    return found.get();
  }

  private Optional<Long> lastSuccess(String jobId, long afterMs) {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(
                    URI.create(baseUrl + "/api/v1/jobs/" + jobId + "/triggers?size=20"))
                .GET());
    try {
      return JSON.readTree(response.body()).findParents("fireMs").stream()
          .filter(t -> "SUCCESS".equals(t.path("state").asText()))
          .map(t -> t.path("fireMs").asLong())
          .filter(ms -> ms > afterMs)
          .max(Long::compare);
    } catch (IOException e) {
      throw new IllegalStateException("unreadable triggers: " + response.body(), e);
    }
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(
          request.header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("request to " + baseUrl + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
