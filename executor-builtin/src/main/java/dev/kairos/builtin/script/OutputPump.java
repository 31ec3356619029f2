package dev.kairos.builtin.script;

import dev.kairos.mq.executor.JobLog;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one output stream of a script run on its own named thread, line by line, into the run's
 * log: at most {@link #MAX_LINE_CHARS} characters of a line, and only while the run's shared line
 * budget lasts; the rest is read (so the process never blocks on a full pipe) and counted. The
 * thread ends when the stream does, that is when every process holding the pipe has exited.
 */
final class OutputPump implements Runnable {

  static final int MAX_LINE_CHARS = 1_000;

  private final InputStream stream;
  private final boolean stderr;
  private final JobLog log;
  private final AtomicInteger budget;
  private final AtomicInteger dropped;
  private final Thread thread;

  OutputPump(
      InputStream stream,
      boolean stderr,
      JobLog log,
      AtomicInteger budget,
      AtomicInteger dropped,
      String threadName) {
    this.stream = stream;
    this.stderr = stderr;
    this.log = log;
    this.budget = budget;
    this.dropped = dropped;
    this.thread = new Thread(this, threadName);
    // Daemon: a background process the run could not find may hold the pipe open (documented).
    this.thread.setDaemon(true);
  }

  OutputPump start() {
    thread.start();
    return this;
  }

  /** Waits up to {@code millis} for the stream to end; true when it did. */
  boolean join(long millis) throws InterruptedException {
    thread.join(Math.max(1, millis));
    return !thread.isAlive();
  }

  @Override
  public void run() {
    try (Reader reader = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
      char[] buffer = new char[4096];
      StringBuilder line = new StringBuilder();
      boolean cut = false;
      int n;
      while ((n = reader.read(buffer)) >= 0) {
        for (int i = 0; i < n; i++) {
          char c = buffer[i];
          if (c == '\n') {
            emit(line, cut);
            line.setLength(0);
            cut = false;
          } else if (c != '\r') {
            if (line.length() < MAX_LINE_CHARS) {
              line.append(c);
            } else {
              cut = true;
            }
          }
        }
      }
      if (line.length() > 0) {
        emit(line, cut);
      }
    } catch (IOException e) {
      log.warn("reading the script's {} stopped: {}", stderr ? "stderr" : "stdout", e.toString());
    }
  }

  private void emit(StringBuilder line, boolean cut) {
    if (budget.getAndDecrement() <= 0) {
      dropped.incrementAndGet();
      return;
    }
    String text = line + (cut ? " [line cut at " + MAX_LINE_CHARS + " chars]" : "");
    if (stderr) {
      log.warn("stderr| {}", text);
    } else {
      log.info("stdout| {}", text);
    }
  }
}
