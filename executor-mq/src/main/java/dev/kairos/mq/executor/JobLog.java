package dev.kairos.mq.executor;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.MessageFormatter;

/**
 * The log of one run, kept with its trigger: every line goes to SLF4J (logger {@code
 * kairos.job.<handler>}, prefixed with the trigger id) and, bounded, into the run's result text,
 * which the executor stores in the trigger record and publishes on the result topic. At most {@link
 * #MAX_LINES} lines and {@link #MAX_CHARS} characters are kept; later lines are only counted ("n
 * more lines"). Thread-safe, so a handler may log from threads it starts.
 */
public final class JobLog {

  public static final int MAX_LINES = 50;
  public static final int MAX_CHARS = 1_500;

  private final String triggerId;
  private final Logger logger;
  private final List<String> lines = new ArrayList<>();
  private int chars;
  private int dropped;
  private String message = "";

  JobLog(String triggerId, String handler) {
    this.triggerId = triggerId;
    this.logger = LoggerFactory.getLogger("kairos.job." + handler);
  }

  /** Logs at INFO; {@code format} uses SLF4J's {@code {}} placeholders. */
  public void info(String format, Object... args) {
    String line = MessageFormatter.arrayFormat(format, args).getMessage();
    logger.info("[{}] {}", triggerId, line);
    keep("INFO " + line);
  }

  /** Logs at WARN; {@code format} uses SLF4J's {@code {}} placeholders. */
  public void warn(String format, Object... args) {
    String line = MessageFormatter.arrayFormat(format, args).getMessage();
    logger.warn("[{}] {}", triggerId, line);
    keep("WARN " + line);
  }

  /** Sets the run's own message (what a {@code @KairosJob} method returns); shown first. */
  public synchronized void setMessage(String message) {
    this.message = message == null ? "" : message;
  }

  private synchronized void keep(String line) {
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
