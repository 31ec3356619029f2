package dev.kairos.mq.log;

import java.time.Duration;
import java.util.Objects;

/**
 * How an executor ships its runs' log lines to Redis ({@code kairos.executor.log.*}).
 *
 * @param enabled whether lines are shipped at all (off: they still go to SLF4J and, bounded, into
 *     the result text)
 * @param maxLines most lines kept per trigger; then one truncation marker, later lines are dropped
 * @param maxBytes most bytes (UTF-8 text) kept per trigger; same marker
 * @param maxLineChars a longer line is cut to this many characters (and marked "…")
 * @param flushInterval how often the flusher ships what every run has logged since its last flush
 * @param flushLines pending lines (all runs together) that wake the flusher before the interval
 * @param ttl how long a trigger's log stays in Redis after its last line (PostgreSQL keeps it)
 */
public record TriggerLogSettings(
    boolean enabled,
    int maxLines,
    int maxBytes,
    int maxLineChars,
    Duration flushInterval,
    int flushLines,
    Duration ttl) {

  public static final int DEFAULT_MAX_LINES = 2_000;
  public static final int DEFAULT_MAX_BYTES = 256 * 1024;
  public static final int DEFAULT_MAX_LINE_CHARS = 4_000;
  public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofMillis(250);
  public static final int DEFAULT_FLUSH_LINES = 1_000;
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  public static final TriggerLogSettings DEFAULTS =
      new TriggerLogSettings(
          true,
          DEFAULT_MAX_LINES,
          DEFAULT_MAX_BYTES,
          DEFAULT_MAX_LINE_CHARS,
          DEFAULT_FLUSH_INTERVAL,
          DEFAULT_FLUSH_LINES,
          DEFAULT_TTL);

  public TriggerLogSettings {
    Objects.requireNonNull(flushInterval, "flushInterval");
    Objects.requireNonNull(ttl, "ttl");
    if (maxLines < 1 || maxBytes < 1 || maxLineChars < 1 || flushLines < 1) {
      throw new IllegalArgumentException(
          "log maxLines, maxBytes, maxLineChars and flushLines must be >= 1");
    }
    if (flushInterval.toMillis() < 1 || ttl.toMillis() < 1) {
      throw new IllegalArgumentException("log flushInterval and ttl must be at least 1 ms");
    }
  }
}
