package dev.kairos.cluster.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * {@code status}: one line per process of the pid files (up or down), and for a node its health,
 * term and the leader it sees. Returns true when every process is up.
 */
final class LocalClusterStatus {

  private final ClusterLayout layout;
  private final PrintStream out;

  LocalClusterStatus(ClusterLayout layout, PrintStream out) {
    this.layout = layout;
    this.out = out;
  }

  boolean run() {
    List<PidFile> processes = layout.processes();
    if (processes.isEmpty()) {
      out.println("no local cluster in " + layout.dir());
      return false;
    }
    NodeHttp http = new NodeHttp(adminToken());
    boolean allUp = true;
    for (PidFile p : processes) {
      boolean up = p.liveHandle().isPresent();
      allUp &= up;
      String detail = "";
      if (up && p.role() == ProcessRole.NODE) {
        detail = nodeDetail(http, p.port());
      }
      out.printf(
          "%-8s %-8s pid %-7d %-4s%s%n", p.name(), p.role(), p.pid(), up ? "up" : "DOWN", detail);
    }
    return allUp;
  }

  private static String nodeDetail(NodeHttp http, int port) {
    try {
      NodeHttp.ClusterView view = http.cluster(port);
      return String.format(
          " http://127.0.0.1:%d health %s, term %d, leader %s, %d members",
          port,
          http.health(port),
          view.term(),
          view.leader().isEmpty() ? "(none)" : view.leader(),
          view.members());
    } catch (RuntimeException e) {
      return " http://127.0.0.1:" + port + " not answering (" + e.getMessage() + ")";
    }
  }

  private String adminToken() {
    try {
      return Files.exists(layout.adminToken())
          ? Files.readString(layout.adminToken(), StandardCharsets.UTF_8).trim()
          : "";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + layout.adminToken(), e);
    }
  }
}
