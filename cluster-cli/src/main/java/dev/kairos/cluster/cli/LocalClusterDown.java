package dev.kairos.cluster.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code down}: stops every process of the pid files, executors first (none is left consuming),
 * then nodes, then the infrastructure JVM, each with SIGTERM and a grace period before SIGKILL, and
 * its descendants too. A pid file whose process is gone (or whose pid now belongs to another
 * process) is only removed. Returns the processes that survived, which should be none.
 */
final class LocalClusterDown {

  private final ClusterLayout layout;
  private final PrintStream out;

  LocalClusterDown(ClusterLayout layout, PrintStream out) {
    this.layout = layout;
    this.out = out;
  }

  List<ProcessHandle> run() {
    List<ProcessHandle> survivors = new ArrayList<>();
    List<PidFile> processes =
        layout.processes().stream()
            .sorted(Comparator.comparing(PidFile::role).reversed().thenComparing(PidFile::name))
            .toList();
    for (PidFile p : processes) {
      p.liveHandle()
          .ifPresentOrElse(
              handle -> {
                List<ProcessHandle> left = ProcessStopper.stop(handle, grace(p.role()));
                survivors.addAll(left);
                out.printf(
                    "stopped %-8s pid %d%s%n",
                    p.name(), p.pid(), left.isEmpty() ? "" : ", STILL ALIVE: " + left);
              },
              () -> out.printf("%-8s pid %d was not running%n", p.name(), p.pid()));
      try {
        Files.deleteIfExists(layout.pidFile(p.name()));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot remove the pid file of " + p.name(), e);
      }
    }
    out.println(
        survivors.isEmpty()
            ? "kairos local cluster down: no process left (logs kept in " + layout.dir() + ")"
            : "kairos local cluster down, but these survived SIGKILL: " + survivors);
    return survivors;
  }

  /**
   * A node leaves ZooKeeper and drains its sends; the infrastructure JVM closes the broker (~15 s).
   */
  private static Duration grace(ProcessRole role) {
    return switch (role) {
      case EXECUTOR -> Duration.ofSeconds(20);
      case NODE -> Duration.ofSeconds(30);
      case INFRA -> Duration.ofSeconds(60);
    };
  }
}
