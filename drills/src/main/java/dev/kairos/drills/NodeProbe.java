package dev.kairos.drills;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.cluster.cli.NodeHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads one node's state over its HTTP port, the way an operator would: the {@code cluster} health
 * component and Prometheus counters. A node that does not answer (killed, paused, starting) makes
 * the call throw; pollers treat that as "not yet".
 */
public final class NodeProbe {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final int port;
  private final NodeHttp operator;

  /**
   * @param bearerToken sent to actuator endpoints other than health, or null when the node does not
   *     require one
   */
  public NodeProbe(int port, String bearerToken) {
    this.port = port;
    this.operator = new NodeHttp(bearerToken);
  }

  /** The node's view of the cluster, from {@code /actuator/health/cluster}. */
  public ClusterView cluster() {
    try {
      return ClusterView.of(JSON.readTree(get("/actuator/health/cluster", false)).path("details"));
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable cluster health on port " + port, e);
    }
  }

  /** The member names this node sees, from {@code /actuator/health/cluster}. */
  public List<String> members() {
    try {
      List<String> names = new ArrayList<>();
      JSON.readTree(get("/actuator/health/cluster", false))
          .path("details")
          .path("members")
          .forEach(n -> names.add(n.asText()));
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable cluster health on port " + port, e);
    }
  }

  /**
   * Asks the node to drain ({@code POST /api/v1/node/drain}, ADMIN), exiting once drained if {@code
   * exit}; returns the phase it answered with.
   */
  public String drain(boolean exit) {
    return operator.drain(port, exit);
  }

  /** The node's drain status ({@code GET /api/v1/node/drain}): phase, entries, message. */
  public JsonNode drainStatus() {
    return operator.drainStatus(port);
  }

  /** The node's ZooKeeper session id ({@code 0x...}), from {@code /actuator/health/zookeeper}. */
  public String zookeeperSessionId() {
    try {
      String id =
          JSON.readTree(get("/actuator/health/zookeeper", false))
              .path("details")
              .path("sessionId")
              .asText();
      if (id.isEmpty()) {
        throw new IllegalStateException("node on port " + port + " has no ZooKeeper session");
      }
      return id;
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable zookeeper health on port " + port, e);
    }
  }

  /**
   * Sum of every sample of Prometheus metric {@code name} (e.g. {@code
   * kairos_fence_rejections_total}) whose labels include {@code labels}; 0 when the node has not
   * registered it.
   */
  public double metric(String name, Map<String, String> labels) {
    return PrometheusText.sum(get("/actuator/prometheus", true), name, labels);
  }

  public double metric(String name) {
    return metric(name, Map.of());
  }

  /** The node's whole {@code /actuator/prometheus} text, for readers of histograms. */
  public String prometheus() {
    return get("/actuator/prometheus", true);
  }

  private String get(String path, boolean authenticated) {
    return operator.getText(port, path, authenticated);
  }

  /** The {@code cluster} health details of one node. */
  public record ClusterView(
      String node,
      long term,
      String leader,
      boolean isLeader,
      long scanningTerm,
      long firstScanMs,
      int members) {

    static ClusterView of(JsonNode d) {
      return new ClusterView(
          d.path("node").asText(),
          d.path("term").asLong(),
          d.path("leader").asText(),
          d.path("isLeader").asBoolean(),
          d.path("scanningTerm").asLong(),
          d.path("firstScanMs").asLong(),
          d.path("members").size());
    }

    /** Leads a term and has completed its first scan pass of it. */
    public boolean scanning() {
      return isLeader && scanningTerm > 0 && firstScanMs > 0;
    }
  }
}
