package dev.kairos.builtin.script;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How an executor's script handler behaves. Off unless {@code enabled}, and then only for the
 * interpreters listed.
 *
 * @param enabled whether script runs start at all
 * @param allowedInterpreters the interpreters a job may name, exactly as written there ({@code
 *     bash}, {@code python3}, {@code /usr/bin/python3}); empty allows none
 * @param workDir where each run gets a private directory holding its script file (removed after)
 * @param defaultTimeout how long a run whose params give no {@code timeoutMs} may take
 * @param killGrace how long the processes of a run being stopped have between SIGTERM and SIGKILL
 * @param maxOutputLines the most stdout + stderr lines of one run written to its log; the rest is
 *     read and counted
 */
public record ScriptSettings(
    boolean enabled,
    List<String> allowedInterpreters,
    Path workDir,
    Duration defaultTimeout,
    Duration killGrace,
    int maxOutputLines) {

  public static final Path DEFAULT_WORK_DIR =
      Path.of(System.getProperty("java.io.tmpdir"), "kairos-scripts");
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);
  public static final Duration DEFAULT_KILL_GRACE = Duration.ofSeconds(3);
  public static final int DEFAULT_MAX_OUTPUT_LINES = 200;

  public ScriptSettings {
    allowedInterpreters =
        allowedInterpreters.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    Objects.requireNonNull(workDir, "workDir");
    positive(defaultTimeout, "default timeout");
    positive(killGrace, "kill grace");
    if (maxOutputLines < 0) {
      throw new IllegalArgumentException("max output lines must be 0 or more");
    }
  }

  private static void positive(Duration value, String what) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(what + " must be above 0, was " + value);
    }
  }

  /** Off, nothing allowed: what an executor does unless told otherwise. */
  public static ScriptSettings disabled() {
    return new ScriptSettings(
        false,
        List.of(),
        DEFAULT_WORK_DIR,
        DEFAULT_TIMEOUT,
        DEFAULT_KILL_GRACE,
        DEFAULT_MAX_OUTPUT_LINES);
  }
}
