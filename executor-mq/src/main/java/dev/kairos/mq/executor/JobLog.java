package dev.kairos.mq.executor;

import dev.kairos.mq.log.RunLog;
import dev.kairos.mq.log.TriggerLogShipper;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.FormattingTuple;
import org.slf4j.helpers.MessageFormatter;

/**
 * The log of one run, kept with its trigger. Every line goes to SLF4J (logger {@code
 * kairos.job.<handler>}, prefixed with the trigger id); with a shipper (every run of a {@link
 * KairosExecutor}) it also goes, as the run goes, into the trigger's log in Redis ({@code GET
 * /api/v1/triggers/{id}/log}), batched by the executor's flusher; and, bounded, into the run's
 * result text: at most {@link #MAX_LINES} lines and {@link #MAX_CHARS} characters there, later
 * lines only counted ("n more lines"). Thread-safe, so a handler may log from threads it starts.
 *
 * <p>While a handler runs, {@link #current()} is its run's log on the worker thread: that is how
 * the Spring starter's Logback appender adds what the handler logs through its own SLF4J loggers.
 */
public final class JobLog {

  public static final int MAX_LINES = 50;
  public static final int MAX_CHARS = 1_500;

  private static final ThreadLocal<JobLog> CURRENT = new ThreadLocal<>();

  private final String triggerId;
  private final Logger logger;
  private final RunLog shipped; // null: not shipped (unit tests of handlers)
  private final TriggerLogShipper shipper;
  private final List<String> lines = new ArrayList<>();
  private int chars;
  private int dropped;
  private String message = "";

  JobLog(String triggerId, String handler) {
    this(triggerId, handler, null, null);
  }

  JobLog(String triggerId, String handler, RunLog shipped, TriggerLogShipper shipper) {
    this.triggerId = triggerId;
    this.logger = LoggerFactory.getLogger("kairos.job." + handler);
    this.shipped = shipped;
    this.shipper = shipper;
  }

  /** The log of the run on this thread, or null outside a handler's worker thread. */
  public static JobLog current() {
    return CURRENT.get();
  }

  /** Binds this log to the worker thread for the handler's run; {@link #unbind()} after. */
  void bind() {
    CURRENT.set(this);
  }

  static void unbind() {
    CURRENT.remove();
  }

  /** Logs at INFO; {@code format} uses SLF4J's {@code {}} placeholders. */
  public void info(String format, Object... args) {
    String line = MessageFormatter.arrayFormat(format, args).getMessage();
    logger.info("[{}] {}", triggerId, line);
    keep("INFO", line);
  }

  /** Logs at WARN; {@code format} uses SLF4J's {@code {}} placeholders. */
  public void warn(String format, Object... args) {
    String line = MessageFormatter.arrayFormat(format, args).getMessage();
    logger.warn("[{}] {}", triggerId, line);
    keep("WARN", line);
  }

  /**
   * Logs at ERROR; {@code format} uses SLF4J's {@code {}} placeholders, and a last argument that is
   * a Throwable is logged with its stack trace (the trigger's log keeps its first line).
   */
  public void error(String format, Object... args) {
    FormattingTuple formatted = MessageFormatter.arrayFormat(format, args);
    String line = formatted.getMessage();
    Throwable thrown = formatted.getThrowable();
    logger.error("[{}] {}", triggerId, line, thrown);
    keep("ERROR", thrown == null ? line : line + ": " + thrown);
  }

  /**
   * Adds a line already logged elsewhere (the starter's appender: a line the handler logged through
   * its own SLF4J logger) to the trigger's log and result text, without logging it again.
   */
  public void append(String level, String line) {
    keep(level, line);
  }

  /** Sets the run's own message (what a {@code @KairosJob} method returns); shown first. */
  public synchronized void setMessage(String message) {
    this.message = message == null ? "" : message;
  }

  /** The run's shipped log, or null when this log is not shipped. */
  RunLog shipped() {
    return shipped;
  }

  private void keep(String level, String line) {
    if (shipped != null) {
      shipper.added(shipped, shipped.add(System.currentTimeMillis(), level, line));
    }
    keepInResult(level + " " + line);
  }

  private synchronized void keepInResult(String line) {
    if (lines.size() >= MAX_LINES || chars + line.length() > MAX_CHARS) {
      dropped++;
      return;
    }
    lines.add(line);
    chars += line.length();
  }

  /** The message, then the kept lines, then how many were dropped. */
  public synchronized String text() {
    StringBuilder text = new StringBuilder(message);
    for (String line : lines) {
      text.append(text.length() == 0 ? "" : "\n").append(line);
    }
    if (dropped > 0) {
      text.append("\n... ").append(dropped).append(" more lines");
    }
    return text.toString();
  }
}
