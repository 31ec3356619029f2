package dev.kairos.drills;

import dev.kairos.cluster.process.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * An executor running as a child JVM ({@link DrillExecutorMain}): its instance id, process, the
 * start log its {@link StartRecorder} appends to and the stats file it rewrites.
 */
public record DrillExecutor(String instanceId, ChildJvm process, Path startLog, Path statsFile) {

  /**
   * The last counters the process wrote ({@code slot}, {@code started}, {@code duplicates}, {@code
   * expired}, {@code errors}), empty before its executor first ran.
   */
  public Map<String, Long> stats() {
    try {
      Map<String, Long> stats = new HashMap<>();
      for (String pair : Files.readString(statsFile, StandardCharsets.UTF_8).trim().split(" ")) {
        int eq = pair.indexOf('=');
        stats.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
      }
      return stats;
    } catch (NoSuchFileException e) {
      return Map.of();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + statsFile, e);
    }
  }

  /** The slot the executor consumes, or -1 before it holds one. */
  public long slot() {
    return stats().getOrDefault("slot", -1L);
  }

  @Override
  public String toString() {
    return instanceId + " " + process;
  }
}
