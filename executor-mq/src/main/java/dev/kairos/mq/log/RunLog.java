package dev.kairos.mq.log;

import dev.kairos.core.log.LogLine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The lines one run logged that are not shipped yet, with the run's caps: at most {@link
 * TriggerLogSettings#maxLines()} lines and {@link TriggerLogSettings#maxBytes()} bytes of text; the
 * first line over a cap is replaced by one truncation marker and every later line is only counted.
 * Thread-safe (a handler may log from threads it starts; the flusher drains).
 *
 * <p>Costs nothing until the run logs: the flusher learns of a run only when its first pending line
 * arrives ({@link #add} returns true once per drain).
 */
public final class RunLog {

  private final String triggerId;
  private final String jobId;
  private final long fireMs;
  private final TriggerLogSettings caps;

  private List<LogLine> pending = new ArrayList<>();
  private long seq;
  private long bytes;
  private boolean truncated;
  private boolean queued;
  private long dropped;

  public RunLog(String triggerId, String jobId, long fireMs, TriggerLogSettings caps) {
    this.triggerId = triggerId;
    this.jobId = jobId;
    this.fireMs = fireMs;
    this.caps = caps;
  }

  public String triggerId() {
    return triggerId;
  }

  public String jobId() {
    return jobId;
  }

  public long fireMs() {
    return fireMs;
  }

  /**
   * Keeps a line, or counts it when a cap was reached.
   *
   * @return true when the run must be (re)queued for the flusher: it had nothing pending before
   */
  public synchronized boolean add(long tsMs, String level, String text) {
    if (truncated) {
      dropped++;
      return false;
    }
    String kept = text;
    if (kept.length() > caps.maxLineChars()) {
      kept = kept.substring(0, caps.maxLineChars()) + "…";
    }
    long size = utf8Length(kept);
    if (seq >= caps.maxLines() || bytes + size > caps.maxBytes()) {
      truncated = true;
      dropped++;
      kept =
          "… log truncated: the cap of "
              + caps.maxLines()
              + " lines / "
              + caps.maxBytes()
              + " bytes per trigger was reached; later lines are not kept";
      level = "WARN";
      size = 0; // the marker is over the caps by design: one line
    }
    bytes += size;
    pending.add(new LogLine(++seq, tsMs, level, kept));
    if (queued) {
      return false;
    }
    queued = true;
    return true;
  }

  /** Takes the pending lines (in sequence order); the next {@link #add} queues the run again. */
  public synchronized List<LogLine> drain() {
    queued = false;
    if (pending.isEmpty()) {
      return List.of();
    }
    List<LogLine> out = pending;
    pending = new ArrayList<>();
    return out;
  }

  /**
   * Takes the pending lines and hands them to {@code send} while still holding this run's lock, so
   * two sends of one run (the flusher's and the run's last) are issued in sequence order: the last
   * lines, issued just before the completion, can never overtake earlier ones.
   *
   * @return what {@code send} returned, or null when nothing was pending
   */
  public synchronized <T> T drainInto(Function<List<LogLine>, T> send) {
    List<LogLine> lines = drain();
    return lines.isEmpty() ? null : send.apply(lines);
  }

  /** Lines logged after a cap was reached (not kept). */
  public synchronized long dropped() {
    return dropped;
  }

  /** Lines kept so far, the marker included. */
  public synchronized long lines() {
    return seq;
  }

  static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
