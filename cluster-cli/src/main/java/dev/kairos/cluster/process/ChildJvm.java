package dev.kairos.cluster.process;

import dev.kairos.devinfra.ChildProcesses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One child JVM: this JVM's own {@code java}, and either this JVM's classpath and a main class or
 * an executable jar ({@link #ofJar}), its arguments, stdout and stderr appended to one log file (a
 * restart appends, after a marker line). The faults are the real ones: {@link #kill()} is SIGKILL
 * ({@code Process.destroyForcibly} on Linux), {@link #pause()} / {@link #resume()} send SIGSTOP /
 * SIGCONT. Every process started is registered with devinfra's {@link ChildProcesses}, whose
 * shutdown hook kills it if this JVM exits first, unless it was made {@link #detached()}: a
 * launcher that exits and leaves its cluster running (the local cluster CLI) keeps pid files
 * instead.
 *
 * <p>Shared by the drills, ClusterBench and the local cluster CLI.
 *
 * <p>Not thread-safe: one test thread drives it.
 */
public final class ChildJvm implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ChildJvm.class);
  private static final long WAIT_SECONDS = 30;

  private final String name;
  private final String mainClass;
  private final List<String> launch;
  private final List<String> jvmOptions;
  private final Map<String, String> environment;
  private final boolean reaped;
  private final List<String> args;
  private final Path logFile;
  private Process process;
  private boolean paused;

  /**
   * @param name for logs and the log file's name
   * @param jvmOptions e.g. {@code -Xmx256m}
   * @param args the main class's arguments
   * @param logFile appended to; parent directories are created
   */
  public ChildJvm(
      String name, String mainClass, List<String> jvmOptions, List<String> args, Path logFile) {
    this(
        name,
        Objects.requireNonNull(mainClass, "mainClass"),
        List.of("-cp", System.getProperty("java.class.path"), mainClass),
        jvmOptions,
        args,
        logFile,
        Map.of(),
        true);
  }

  private ChildJvm(
      String name,
      String mainClass,
      List<String> launch,
      List<String> jvmOptions,
      List<String> args,
      Path logFile,
      Map<String, String> environment,
      boolean reaped) {
    this.name = Objects.requireNonNull(name, "name");
    this.mainClass = mainClass;
    this.launch = List.copyOf(launch);
    this.jvmOptions = List.copyOf(jvmOptions);
    this.args = List.copyOf(args);
    this.logFile = logFile.toAbsolutePath();
    this.environment = Map.copyOf(environment);
    this.reaped = reaped;
  }

  /** A child JVM that runs {@code java -jar <jar>}, as a user runs the node or an executor. */
  public static ChildJvm ofJar(
      String name, Path jar, List<String> jvmOptions, List<String> args, Path logFile) {
    Path absolute = jar.toAbsolutePath();
    return new ChildJvm(
        name,
        absolute.getFileName().toString(),
        List.of("-jar", absolute.toString()),
        jvmOptions,
        args,
        logFile,
        Map.of(),
        true);
  }

  /**
   * This child JVM with {@code variables} added to the environment it inherits, e.g. a secret that
   * must not show in {@code ps} as an argument would.
   */
  public ChildJvm withEnvironment(Map<String, String> variables) {
    Map<String, String> merged = new HashMap<>(environment);
    merged.putAll(variables);
    return new ChildJvm(name, mainClass, launch, jvmOptions, args, logFile, merged, reaped);
  }

  /** This child JVM, not killed when the JVM that started it exits. */
  public ChildJvm detached() {
    return new ChildJvm(name, mainClass, launch, jvmOptions, args, logFile, environment, false);
  }

  public String name() {
    return name;
  }

  public Path logFile() {
    return logFile;
  }

  /** Starts the process; throws if it is already running. */
  public void start() {
    if (isAlive()) {
      throw new IllegalStateException(name + " is already running as pid " + process.pid());
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(launch);
    command.addAll(args);
    try {
      Files.createDirectories(logFile.getParent());
      Files.writeString(
          logFile,
          "==== " + Instant.now() + " starting " + name + " (" + mainClass + ")\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
      builder.environment().putAll(environment);
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
    if (reaped) {
      ChildProcesses.register(process);
    }
    paused = false;
    log.info("{} started as pid {}, log {}", name, process.pid(), logFile);
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  public long pid() {
    if (process == null) {
      throw new IllegalStateException(name + " was never started");
    }
    return process.pid();
  }

  /** SIGKILL, then waits until the process is gone: no shutdown hook, no graceful anything. */
  public void kill() {
    if (process == null) {
      return;
    }
    if (paused) {
      resume(); // a stopped process dies on SIGKILL too, but waitFor needs it reaped promptly
    }
    process.destroyForcibly();
    awaitExit();
    log.info("{} (pid {}) killed with SIGKILL", name, process.pid());
  }

  /** SIGSTOP: every thread of the process freezes, sockets stay open, timers stop. */
  public void pause() {
    signal("STOP");
    paused = true;
  }

  /**
   * Whether the process was paused ({@link #pause()}) and not resumed, restarted or killed since.
   */
  public boolean isPaused() {
    return paused && isAlive();
  }

  /** SIGCONT after {@link #pause()}. */
  public void resume() {
    signal("CONT");
    paused = false;
  }

  /** Kills the running process (if any) and starts a new one with the same command line. */
  public void restart() {
    kill();
    start();
  }

  private void signal(String signal) {
    if (!isAlive()) {
      throw new IllegalStateException(name + " is not running: cannot send SIG" + signal);
    }
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .start();
      if (!kill.waitFor(WAIT_SECONDS, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException(
            "kill -" + signal + " " + process.pid() + " failed: " + new String(readAll(kill)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot send SIG" + signal + " to " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling " + name, e);
    }
    log.info("{} (pid {}) sent SIG{}", name, process.pid(), signal);
  }

  private static byte[] readAll(Process p) {
    try {
      return p.getInputStream().readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  private void awaitExit() {
    try {
      if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            name + " (pid " + process.pid() + ") still alive " + WAIT_SECONDS + " s after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + name + " to exit", e);
    } finally {
      ChildProcesses.forget(process);
    }
  }

  /** Kills the process; close twice is a no-op. */
  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      kill();
    } else if (process != null) {
      ChildProcesses.forget(process);
    }
  }

  @Override
  public String toString() {
    return name + (isAlive() ? "(pid " + process.pid() + ")" : "(not running)");
  }
}
