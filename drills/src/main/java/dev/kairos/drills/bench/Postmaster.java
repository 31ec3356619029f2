package dev.kairos.drills.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the PostgreSQL server's postmaster, the process whose tree ({@link ProcStat#processTree}:
 * backends, checkpointer, walwriter, autovacuum, ...) is the {@code postgres} CPU column.
 * devinfra's server is started through {@code pg_ctl}, which exits once the server is up, so the
 * postmaster is no descendant of the bench JVM: its pid is read from {@code postmaster.pid} in the
 * data directory (first line: pid, fourth line: port), and the port is checked against the
 * server's.
 */
final class Postmaster {

  private Postmaster() {}

  /** The pid on the first line of a {@code postmaster.pid} text whose port line is {@code port}. */
  static long pid(String postmasterPidFile, int port) {
    String[] lines = postmasterPidFile.split("\n");
    if (lines.length < 4) {
      throw new IllegalArgumentException("not a postmaster.pid: " + postmasterPidFile);
    }
    int filePort = Integer.parseInt(lines[3].trim());
    if (filePort != port) {
      throw new IllegalStateException(
          "postmaster.pid names port " + filePort + ", the server listens on " + port);
    }
    return Long.parseLong(lines[0].trim());
  }

  /** The live postmaster of the data directory {@code dataDir} serving {@code port}. */
  static long find(Path dataDir, int port) {
    Path file = dataDir.resolve("postmaster.pid");
    long pid;
    try {
      pid = pid(Files.readString(file, StandardCharsets.UTF_8), port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      return pid;
    }
    throw new IllegalStateException("postmaster " + pid + " of " + file + " is not running");
  }
}
