package dev.kairos.devinfra;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * One redis-server child process with its own directory (config, log, AOF, nodes.conf) and a fixed
 * port, so it can be stopped and started again with the same identity.
 *
 * <p>We run the binary ourselves rather than through embedded-redis' RedisServer: that class closes
 * the server's stdout after the ready line (so the log is lost) and registers a new shutdown hook
 * on every start. Here the log goes to {@code redis.log} and readiness is a real PING answered with
 * PONG (a server loading its AOF answers LOADING and is not ready yet).
 */
final class RedisProcess implements ServerControl {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  private static final long STOP_GRACE_SECONDS = 10;
  private static final Duration TEXT_FILE_BUSY_RETRY = Duration.ofSeconds(5);

  private final Path binary;
  private final Path dir;
  private final int port;
  private final List<String> extraConfig;
  private Process process;

  RedisProcess(Path binary, Path dir, int port, List<String> extraConfig) {
    this.binary = binary.toAbsolutePath();
    this.dir = dir.toAbsolutePath();
    this.port = port;
    this.extraConfig = List.copyOf(extraConfig);
  }

  int port() {
    return port;
  }

  /**
   * Starts the process, retrying while exec fails with ETXTBSY ("Text file busy"). The binary was
   * just written by this JVM; a child another thread forked while its write descriptor was open
   * holds a copy of that descriptor until the child execs (a few milliseconds), and exec of a file
   * open for writing fails. Nothing on our side can close the child's copy, so the kernel's answer
   * is to try again once it has exec'd; the bound keeps a real failure from hiding.
   */
  private static Process startAvoidingTextFileBusy(ProcessBuilder builder) throws IOException {
    long deadline = System.nanoTime() + TEXT_FILE_BUSY_RETRY.toNanos();
    while (true) {
      try {
        return builder.start();
      } catch (IOException e) {
        boolean textFileBusy = String.valueOf(e.getMessage()).contains("error=26,");
        if (!textFileBusy || System.nanoTime() > deadline) {
          throw e;
        }
        LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      }
    }
  }

  Path dir() {
    return dir;
  }

  @Override
  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  @Override
  public synchronized void start() {
    if (isRunning()) {
      throw new IllegalStateException("redis on port " + port + " is already running");
    }
    try {
      Files.createDirectories(dir);
      Path config = writeConfig();
      Path log = dir.resolve("redis.log");
      process =
          startAvoidingTextFileBusy(
              new ProcessBuilder(binary.toString(), config.toString())
                  .directory(dir.toFile())
                  .redirectErrorStream(true)
                  .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())));
      ChildProcesses.register(process);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start redis-server on port " + port, e);
    }
    Process started = process;
    Poll.until(
        READY_TIMEOUT,
        "redis-server on 127.0.0.1:"
            + port
            + " to answer PING (log: "
            + dir.resolve("redis.log")
            + ")",
        () -> {
          if (!started.isAlive()) {
            throw new IllegalStateException(
                "redis-server exited with "
                    + started.exitValue()
                    + "; see "
                    + dir.resolve("redis.log"));
          }
          return "+PONG".equals(ping());
        });
  }

  @Override
  public synchronized void stop() {
    if (process != null) {
      ChildProcesses.terminate(process, STOP_GRACE_SECONDS);
      process = null;
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** SIGKILL: nothing flushed, nothing said to the cluster bus. */
  synchronized void kill() {
    if (process != null) {
      process.destroyForcibly();
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted killing redis on port " + port, e);
      }
      ChildProcesses.forget(process);
      process = null;
    }
  }

  /** Sends {@code SIG<name>} (STOP, CONT) to the running server. */
  synchronized void signal(String name) {
    if (!isRunning()) {
      throw new IllegalStateException("redis on port " + port + " is not running");
    }
    try {
      int exit =
          new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException("kill -" + name + " exited with " + exit);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot signal redis on port " + port, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted signalling redis on port " + port, e);
    }
  }

  synchronized long pid() {
    return process == null ? -1 : process.pid();
  }

  private Path writeConfig() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("bind 127.0.0.1");
    lines.add("port " + port);
    lines.add("protected-mode no");
    lines.add("daemonize no");
    // Always set dir: otherwise AOF and nodes.conf land next to the binary.
    lines.add("dir " + dir.toAbsolutePath());
    lines.add("logfile \"\"");
    lines.add("save \"\"");
    lines.add("appendonly yes");
    lines.add("appendfsync everysec");
    // The AOF rewrite writes an RDB preamble; compressing it was a third of the rewrite child's
    // CPU under the fire path, and an uncompressed base also makes rewrites rarer (the trigger is
    // growth relative to the base). docs/operations.md "Redis memory and AOF rewrites".
    lines.add("rdbcompression no");
    lines.addAll(extraConfig);
    Path config = dir.resolve("redis.conf");
    Files.write(config, lines, StandardCharsets.UTF_8);
    return config;
  }

  /** Sends an inline PING and returns the first reply line, or null if nobody answers. */
  private String ping() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      socket.setSoTimeout(1_000);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder reply = new StringBuilder();
      int c;
      while ((c = in.read()) != -1 && c != '\r') {
        reply.append((char) c);
      }
      return reply.toString();
    } catch (IOException e) {
      return null;
    }
  }
}
