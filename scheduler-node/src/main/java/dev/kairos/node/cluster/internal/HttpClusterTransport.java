package dev.kairos.node.cluster.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.coordinator.cluster.ClusterTransport;
import dev.kairos.coordinator.cluster.Member;
import dev.kairos.core.error.KairosException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@link ClusterTransport} over HTTP: {@code POST http://<internalAddress>/internal/cluster/...}
 * with the shared secret in {@link ClusterSecret#HEADER}. Every call is bounded by {@code timeout}
 * (connect and response), which the manager needs below its heartbeat interval; an unreachable,
 * unauthorised or wrong-incarnation target throws. Thread-safe.
 */
final class HttpClusterTransport implements ClusterTransport {

  static final String HEARTBEAT_PATH = "/internal/cluster/heartbeat";
  static final String STILL_HEAR_PATH = "/internal/cluster/still-hear-leader";

  private final HttpClient http;
  private final ClusterSecret secret;
  private final Duration timeout;
  private final ObjectMapper json;

  HttpClusterTransport(ClusterSecret secret, Duration timeout, ObjectMapper json) {
    this.secret = secret;
    this.timeout = timeout;
    this.json = json;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  @Override
  public long heartbeat(Member target, long term, String leaderId) {
    ClusterMessages.HeartbeatResponse reply =
        post(
            target,
            HEARTBEAT_PATH,
            new ClusterMessages.HeartbeatRequest(term, leaderId, target.incarnation()),
            ClusterMessages.HeartbeatResponse.class);
    return reply.observedTerm();
  }

  @Override
  public boolean askStillHearLeader(Member target, long term) {
    return post(
            target,
            STILL_HEAR_PATH,
            new ClusterMessages.StillHearRequest(term, target.incarnation()),
            ClusterMessages.StillHearResponse.class)
        .hears();
  }

  private <T> T post(Member target, String path, Object body, Class<T> replyType) {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://" + target.internalAddress() + path))
              .timeout(timeout)
              .header("Content-Type", "application/json")
              .header(ClusterSecret.HEADER, secret.header())
              .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
              .build();
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new KairosException(
            "cluster call "
                + path
                + " to "
                + target.name()
                + " ("
                + target.internalAddress()
                + ") answered HTTP "
                + response.statusCode());
      }
      return json.readValue(response.body(), replyType);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KairosException("interrupted calling " + target.name() + path, e);
    } catch (IOException | IllegalArgumentException e) {
      throw new KairosException(
          "cluster call " + path + " to " + target.name() + " failed: " + e, e);
    }
  }
}
