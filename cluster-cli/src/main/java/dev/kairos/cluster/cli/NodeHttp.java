package dev.kairos.cluster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * What the CLI asks a node over HTTP, as an operator would: the health components (public), the
 * executor registry and the node drain (admin token). A node that does not answer makes the call
 * throw; pollers treat that as "not yet".
 */
public final class NodeHttp {

  private static final Duration TIMEOUT = Duration.ofSeconds(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final String adminToken;

  /**
   * @param adminToken the ADMIN bearer token, or null for a node that requires none
   */
  public NodeHttp(String adminToken) {
    this.adminToken = adminToken;
  }

  /** The node's {@code cluster} health details: node, term, leader, members. */
  ClusterView cluster(int port) {
    JsonNode d = get(port, "/actuator/health/cluster", false).path("details");
    return new ClusterView(
        d.path("node").asText(),
        d.path("term").asLong(),
        d.path("leader").asText(),
        d.path("members").size());
  }

  /** The node's overall health status ({@code UP}, {@code DOWN}, ...). */
  String health(int port) {
    return get(port, "/actuator/health", false).path("status").asText("UNKNOWN");
  }

  /** Instance ids of the live executor slots of {@code app}. */
  List<String> executorInstances(int port, String app) {
    return get(port, "/api/v1/executors/" + app, true).findValuesAsText("instanceId");
  }

  /**
   * Asks the node to drain ({@code POST /api/v1/node/drain}, ADMIN), exiting once drained if {@code
   * exit}; returns the phase it answered with.
   */
  public String drain(int port, boolean exit) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/node/drain"))
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"exit\":" + exit + "}"));
    if (adminToken != null) {
      request.header("Authorization", "Bearer " + adminToken);
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200 && response.statusCode() != 202) {
        throw new IllegalStateException(
            "POST /api/v1/node/drain on port "
                + port
                + " answered "
                + response.statusCode()
                + ": "
                + response.body());
      }
      return JSON.readTree(response.body()).path("phase").asText();
    } catch (IOException e) {
      throw new UncheckedIOException("POST /api/v1/node/drain on port " + port + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** The node's drain status: phase, wheel and inflight entries, message. */
  public JsonNode drainStatus(int port) {
    return get(port, "/api/v1/node/drain", true);
  }

  private JsonNode get(int port, String path, boolean authenticated) {
    String body = getText(port, path, authenticated);
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path + " on port " + port + " is not JSON", e);
    }
  }

  /**
   * The body of {@code GET path} on the node at {@code port}, with the admin token when {@code
   * authenticated}; health's 503 (a component down) is still an answer.
   *
   * @throws IllegalStateException for any other status
   * @throws UncheckedIOException when the node does not answer
   */
  public String getText(int port, String path, boolean authenticated) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(TIMEOUT);
    if (authenticated && adminToken != null) {
      request.header("Authorization", "Bearer " + adminToken);
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      // Health answers 503 with its details when a component is down: still readable.
      if (response.statusCode() != 200 && response.statusCode() != 503) {
        throw new IllegalStateException(
            "GET " + path + " on port " + port + " answered " + response.statusCode());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path + " on port " + port + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** One node's view of the cluster. */
  record ClusterView(String node, long term, String leader, int members) {}
}
