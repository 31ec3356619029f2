package dev.kairos.cluster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code drain <node>}: asks the node to drain and exit ({@code POST /api/v1/node/drain} with
 * {@code exit}), prints each phase it passes and returns true once the process has exited drained.
 * The first half of a rolling upgrade: the node's pid file stays, so {@code status} shows it DOWN
 * until it is started again.
 */
final class LocalClusterDrain {

  /** Each drain step waits up to 2 minutes by default; the whole drain gets a little more. */
  static final Duration DEADLINE = Duration.ofMinutes(5);

  private static final Duration STEP = Duration.ofMillis(200);

  private final ClusterLayout layout;
  private final PrintStream out;

  LocalClusterDrain(ClusterLayout layout, PrintStream out) {
    this.layout = layout;
    this.out = out;
  }

  boolean run(String node) {
    PidFile pid =
        layout.processes().stream()
            .filter(p -> p.name().equals(node) && p.role() == ProcessRole.NODE)
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no node named " + node));
    ProcessHandle process =
        pid.liveHandle()
            .orElseThrow(
                () -> new IllegalStateException(node + " (pid " + pid.pid() + ") is down"));
    NodeHttp http = new NodeHttp(adminToken());
    String phase = http.drain(pid.port(), true);
    out.printf("%s: drain requested (%s)%n", node, phase);
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (process.isAlive()) {
      Optional<JsonNode> status = status(http, pid.port());
      if (status.isPresent()) {
        String now = status.get().path("phase").asText();
        if (!now.equals(phase)) {
          phase = now;
          out.printf("%s: %s (%s)%n", node, phase, status.get().path("message").asText());
        }
        if (phase.equals("FAILED")) {
          return false;
        }
      }
      if (System.nanoTime() - deadline > 0) {
        out.printf("%s: not drained within %s (last phase %s)%n", node, DEADLINE, phase);
        return false;
      }
      sleep();
    }
    out.printf("%s: drained and exited; start it again to finish the upgrade%n", node);
    return true;
  }

  /** Empty while the node stops answering (it is exiting). */
  private static Optional<JsonNode> status(NodeHttp http, int port) {
    try {
      return Optional.of(http.drainStatus(port));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(STEP.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private String adminToken() {
    try {
      return Files.readString(layout.adminToken(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + layout.adminToken(), e);
    }
  }
}
