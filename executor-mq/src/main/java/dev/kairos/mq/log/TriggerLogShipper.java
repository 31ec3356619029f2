package dev.kairos.mq.log;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.log.LogLine;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.log.TriggerLogScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ships the runs' log lines to Redis in batches: one flusher thread ({@code kairos-log-flusher-
 * <app>}) wakes every {@link TriggerLogSettings#flushInterval()}, or sooner once {@link
 * TriggerLogSettings#flushLines()} lines wait, and sends every run's pending lines as one pipeline
 * of {@code append_trigger_log.lua} calls ({@link TriggerLogScript}, one per trigger, per {@link
 * #MAX_LINES_PER_CALL} lines). A handler thread never waits for Redis: logging only appends to its
 * {@link RunLog}. The last lines of a run go with its end ({@link #finish}), issued before the
 * completion on the same connection. A run that logs nothing costs no Redis call.
 *
 * <p>A batch Redis refuses is dropped (counted and logged): the log is best-effort, the run is not
 * held back by it.
 */
public final class TriggerLogShipper implements AutoCloseable {

  /** Bounds one script call (Lua's unpack and the time one call holds Redis). */
  static final int MAX_LINES_PER_CALL = 200;

  private static final Logger log = LoggerFactory.getLogger(TriggerLogShipper.class);

  private final Lifecycle lifecycle = new Lifecycle("log shipper");
  private final KairosRedis redis;
  private final TriggerLogSettings settings;
  private final long eventsMaxLen;
  private final String app;
  private final TriggerLogScript append;

  /** Runs with pending lines; a run is in here at most once between two drains. */
  private final Queue<RunLog> dirty = new ConcurrentLinkedQueue<>();

  private final AtomicInteger pendingLines = new AtomicInteger();
  private final LongAdder shipped = new LongAdder();
  private final LongAdder lost = new LongAdder();
  private final LongAdder capped = new LongAdder();
  private final LongAdder calls = new LongAdder();
  private volatile Thread flusher;

  public TriggerLogShipper(
      KairosRedis redis,
      RedisKeys keys,
      TriggerLogSettings settings,
      long eventsMaxLen,
      String app) {
    this.redis = redis;
    this.append = new TriggerLogScript(redis, keys);
    this.settings = settings;
    this.eventsMaxLen = eventsMaxLen;
    this.app = app;
  }

  public void start() {
    lifecycle.start();
    Thread thread = new Thread(this::flushLoop, "kairos-log-flusher-" + app);
    thread.setDaemon(true);
    flusher = thread;
    thread.start();
  }

  public TriggerLogSettings settings() {
    return settings;
  }

  /** A line was added to {@code run}; {@code queue} is what {@link RunLog#add} returned. */
  public void added(RunLog run, boolean queue) {
    if (queue) {
      dirty.add(run);
    }
    if (pendingLines.incrementAndGet() >= settings.flushLines()) {
      Thread thread = flusher;
      if (thread != null) {
        LockSupport.unpark(thread);
      }
    }
  }

  /**
   * The run ended: sends its last lines now, without waiting (called on the worker thread just
   * before the completion is issued, so on the same connection the lines reach Redis first).
   *
   * @return completes when Redis answered (never exceptionally); already done when nothing was left
   */
  public CompletableFuture<Void> finish(RunLog run) {
    capped.add(run.dropped());
    CompletableFuture<Void> sent = run.drainInto(lines -> send(run, lines));
    return sent == null ? CompletableFuture.completedFuture(null) : sent;
  }

  private void flushLoop() {
    long intervalNanos = settings.flushInterval().toNanos();
    while (lifecycle.isStarted()) {
      LockSupport.parkNanos(this, intervalNanos);
      if (Thread.interrupted() && !lifecycle.isStarted()) {
        break;
      }
      try {
        flushNow();
      } catch (RuntimeException e) {
        log.warn("log flusher of app {} failed, will keep running", app, e);
      }
    }
  }

  /** Sends every run's pending lines as one pipeline and waits (bounded) for the answers. */
  void flushNow() {
    pendingLines.set(0);
    List<CompletableFuture<Void>> sent = new ArrayList<>();
    RunLog run;
    while ((run = dirty.poll()) != null) {
      RunLog current = run;
      CompletableFuture<Void> batch = run.drainInto(lines -> send(current, lines));
      if (batch != null) {
        sent.add(batch);
      }
    }
    if (sent.isEmpty()) {
      return;
    }
    try {
      CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
          .get(redis.timeout().toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // each batch counts its own failure
    }
  }

  private CompletableFuture<Void> send(RunLog run, List<LogLine> lines) {
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    for (int from = 0; from < lines.size(); from += MAX_LINES_PER_CALL) {
      calls.add(call(run, lines.subList(from, Math.min(lines.size(), from + MAX_LINES_PER_CALL))));
    }
    return calls.size() == 1
        ? calls.get(0)
        : CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  private CompletableFuture<Void> call(RunLog run, List<LogLine> lines) {
    calls.increment();
    CompletableFuture<Object> reply;
    try {
      reply =
          append
              .appendAsync(
                  settings.ttl().toMillis(),
                  eventsMaxLen,
                  run.triggerId(),
                  run.jobId(),
                  run.fireMs(),
                  lines)
              .toCompletableFuture();
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    return reply.handle(
        (ok, failure) -> {
          if (failure == null) {
            shipped.add(lines.size());
          } else {
            lost.add(lines.size());
            log.warn(
                "shipping {} log lines of trigger {} failed ({}); they are only in the executor's"
                    + " own log",
                lines.size(),
                run.triggerId(),
                failure.toString());
          }
          return null;
        });
  }

  /** Lines written to Redis since start. */
  public long shippedLines() {
    return shipped.sum();
  }

  /** Lines Redis did not take (errors, timeouts). */
  public long lostLines() {
    return lost.sum();
  }

  /** Lines not kept because their run had reached a cap (counted when the run ends). */
  public long cappedLines() {
    return capped.sum();
  }

  /** Script calls issued since start (one per trigger per flush, more for very long batches). */
  public long calls() {
    return calls.sum();
  }

  /** Stops the flusher after one last flush of what every run still holds. Idempotent. */
  @Override
  public void close() {
    Lifecycle.State previous = lifecycle.closeFrom();
    if (previous != Lifecycle.State.STARTED) {
      return;
    }
    Thread thread = flusher;
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flushNow();
  }
}
