package dev.kairos.cluster.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * One process of the local cluster as {@code up} left it: written to {@code pids/<name>.pid} so a
 * later {@code status} or {@code down} (another JVM) finds it. The start instant guards against pid
 * reuse: a pid whose process started at another instant is a different process, never signalled.
 *
 * @param port the node's HTTP port, 0 for other roles
 */
public record PidFile(String name, ProcessRole role, long pid, Instant started, int port) {

  /** The record of a running process. */
  public static PidFile of(String name, ProcessRole role, ProcessHandle process, int port) {
    Instant started =
        process
            .info()
            .startInstant()
            .orElseThrow(() -> new IllegalStateException("no start time for pid " + process.pid()));
    return new PidFile(name, role, process.pid(), started, port);
  }

  /** The process, if it is still the one that was started. */
  public Optional<ProcessHandle> liveHandle() {
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(h -> h.info().startInstant().map(started::equals).orElse(false));
  }

  /** Writes the file atomically (a reader never sees half of it). */
  public void write(Path file) {
    Properties p = new Properties();
    p.setProperty("name", name);
    p.setProperty("role", role.name());
    p.setProperty("pid", Long.toString(pid));
    p.setProperty("started", started.toString());
    p.setProperty("port", Integer.toString(port));
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.createDirectories(file.getParent());
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        p.store(w, "kairos local cluster process");
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  public static PidFile read(Path file) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return new PidFile(
        p.getProperty("name"),
        ProcessRole.valueOf(p.getProperty("role")),
        Long.parseLong(p.getProperty("pid")),
        Instant.parse(p.getProperty("started")),
        Integer.parseInt(p.getProperty("port", "0")));
  }
}
