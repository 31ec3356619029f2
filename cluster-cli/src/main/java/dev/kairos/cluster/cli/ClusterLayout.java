package dev.kairos.cluster.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local cluster's one folder: {@code <name>.log} per process, {@code pids/<name>.pid}, the
 * infrastructure's data ({@code infra/}) and connection properties ({@code infra.properties}), the
 * admin token ({@code admin-token}, owner-readable only). A marker file says the folder is ours, so
 * {@code up} may empty it and never empties a folder it did not create.
 */
public record ClusterLayout(Path dir) {

  private static final String MARKER = ".kairos-local-cluster";

  public ClusterLayout {
    dir = dir.toAbsolutePath();
  }

  public Path log(String name) {
    return dir.resolve(name + ".log");
  }

  public Path pids() {
    return dir.resolve("pids");
  }

  public Path pidFile(String name) {
    return pids().resolve(name + ".pid");
  }

  public Path infraWorkDir() {
    return dir.resolve("infra");
  }

  public Path infraProperties() {
    return dir.resolve("infra.properties");
  }

  public Path adminToken() {
    return dir.resolve("admin-token");
  }

  public Path tmp(String name) {
    return dir.resolve("tmp").resolve(name);
  }

  /** Every pid file, in start order (infrastructure, nodes, executors; by name within a role). */
  public List<PidFile> processes() {
    if (!Files.isDirectory(pids())) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(pids())) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".pid"))
          .map(PidFile::read)
          .sorted(Comparator.comparing(PidFile::role).thenComparing(PidFile::name))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + pids(), e);
    }
  }

  /**
   * Empties the folder for a new cluster and marks it ours; refuses a non-empty folder without the
   * marker (a user's folder passed as {@code --dir} by mistake).
   */
  public void reset() {
    try {
      if (Files.isDirectory(dir)) {
        boolean empty;
        try (Stream<Path> entries = Files.list(dir)) {
          empty = entries.findAny().isEmpty();
        }
        if (!empty && !Files.exists(dir.resolve(MARKER))) {
          throw new IllegalStateException(
              dir + " is not empty and was not made by local-cluster.sh: choose another --dir");
        }
        try (Stream<Path> tree = Files.walk(dir)) {
          for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
            if (!p.equals(dir)) {
              Files.delete(p);
            }
          }
        }
      }
      Files.createDirectories(pids());
      Files.writeString(dir.resolve(MARKER), "made by deploy/local-cluster.sh\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reset " + dir, e);
    }
  }
}
