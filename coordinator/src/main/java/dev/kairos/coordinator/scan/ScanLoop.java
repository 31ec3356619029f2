package dev.kairos.coordinator.scan;

import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.fence.StaleTermException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the scan of ONE leader term on a named thread: first raises every shard's fence to the term,
 * then scans every {@code interval} until closed. A fence rejection (a newer leader exists) stops
 * the loop at once and is reported to {@code onStaleTerm} so the election layer steps down; any
 * other failure is logged, counted and retried next interval.
 *
 * <p>Before every pass the loop asks {@code paused} (the cluster-wide pause flag, {@code
 * ClusterPause#isPaused}); while it answers true the pass claims nothing. The due ZSET keeps every
 * job's score, so the first pass after a resume finds the fires that came due meanwhile and the
 * scanner applies each job's misfire strategy to those older than its threshold. A failure to read
 * the flag counts as a failed pass (nothing is claimed on a guess).
 *
 * <p>A new term gets a new loop: leadership is edge-triggered, and {@link #close()} is what
 * "revoked" means here.
 */
public final class ScanLoop implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ScanLoop.class);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  private final long term;
  private final ShardFence fence;
  private final DueFireScanner scanner;
  private final Duration interval;
  private final Consumer<StaleTermException> onStaleTerm;
  private final BooleanSupplier paused;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
  private final Counter errors;
  private final Counter passes;
  private final Counter pausedPasses;
  private final Timer passDuration;
  private final LongSupplier clockMs;
  private volatile ScheduledExecutorService executor;

  /** When the first pass of this term completed (clockMs), 0 before: takeover time in drills. */
  private volatile long firstPassMs;

  /** Only the loop thread touches these. */
  private boolean fenced;

  private boolean wasPaused;

  /** A loop that never pauses (tests, tools). */
  public ScanLoop(
      long term,
      ShardFence fence,
      DueFireScanner scanner,
      Duration interval,
      Consumer<StaleTermException> onStaleTerm,
      MeterRegistry meters) {
    this(term, fence, scanner, interval, onStaleTerm, () -> false, meters);
  }

  /**
   * @param clockMs epoch ms, read only to timestamp the first completed pass ({@link
   *     #firstPassMs()})
   */
  public ScanLoop(
      long term,
      ShardFence fence,
      DueFireScanner scanner,
      Duration interval,
      Consumer<StaleTermException> onStaleTerm,
      MeterRegistry meters,
      LongSupplier clockMs) {
    this(term, fence, scanner, interval, onStaleTerm, () -> false, meters, clockMs);
  }

  /**
   * @param paused read before every pass; true skips the pass (see the class comment)
   */
  public ScanLoop(
      long term,
      ShardFence fence,
      DueFireScanner scanner,
      Duration interval,
      Consumer<StaleTermException> onStaleTerm,
      BooleanSupplier paused,
      MeterRegistry meters) {
    this(term, fence, scanner, interval, onStaleTerm, paused, meters, System::currentTimeMillis);
  }

  /**
   * @param paused read before every pass; true skips the pass (see the class comment)
   * @param clockMs epoch ms, read only to timestamp the first completed pass ({@link
   *     #firstPassMs()})
   */
  public ScanLoop(
      long term,
      ShardFence fence,
      DueFireScanner scanner,
      Duration interval,
      Consumer<StaleTermException> onStaleTerm,
      BooleanSupplier paused,
      MeterRegistry meters,
      LongSupplier clockMs) {
    this.clockMs = clockMs;
    this.term = term;
    this.fence = fence;
    this.scanner = scanner;
    this.interval = interval;
    this.onStaleTerm = onStaleTerm;
    this.paused = paused;
    this.errors = meters.counter("kairos.scan.errors");
    this.passes = meters.counter("kairos.scan.passes");
    this.pausedPasses = meters.counter("kairos.scan.paused.passes");
    this.passDuration =
        Timer.builder("kairos.scan.pass.duration")
            .description(
                "one completed scan pass over every shard, from its start to its last shard's"
                    + " claims; includes the scan spread (a term's first pass has none)")
            .register(meters);
  }

  public long term() {
    return term;
  }

  /** Whether the loop still scans: started, not closed, and not stopped by a fence. */
  public boolean isRunning() {
    return state.get() == State.STARTED;
  }

  /**
   * Epoch ms (of the clock given at construction) at which the first scan pass of this term
   * completed, or 0 while none has: how long a takeover took, as operators and drills see it.
   */
  public long firstPassMs() {
    return firstPassMs;
  }

  private String threadName() {
    return "kairos-scan-term-" + term;
  }

  public void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException("scan loop of term " + term + " was already " + state.get());
    }
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, threadName());
              thread.setDaemon(true);
              return thread;
            });
    executor.scheduleWithFixedDelay(this::runOnce, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    log.info("term={} scan loop started, every {} ms", term, interval.toMillis());
  }

  private void runOnce() {
    if (!isRunning()) {
      return;
    }
    try {
      if (!fenced) {
        fence.raiseAll(term);
        fenced = true;
        log.info("term={} fenced every shard", term);
      }
      if (paused.getAsBoolean()) {
        if (!wasPaused) {
          log.warn("term={} scheduling is paused cluster-wide: no fire is claimed", term);
          wasPaused = true;
        }
        pausedPasses.increment();
        scanner.skipPaused(term);
        return;
      }
      if (wasPaused) {
        log.warn("term={} scheduling resumed: claiming what came due while paused", term);
        wasPaused = false;
      }
      ScanReport report = scanner.scan(term, this::isRunning);
      passes.increment();
      passDuration.record(report.durationMs(), TimeUnit.MILLISECONDS);
      if (firstPassMs == 0) {
        firstPassMs = clockMs.getAsLong();
        log.info("term={} first scan pass completed", term);
      }
      if (report.firesClaimed() > 0 || report.casSkips() > 0 || report.jobErrors() > 0) {
        log.debug("term={} scan pass: {}", term, report);
      }
    } catch (StaleTermException e) {
      log.warn("term={} is stale (fence {}); scanning stops now", term, e.fence());
      close();
      onStaleTerm.accept(e);
    } catch (RuntimeException e) {
      if (isRunning()) {
        errors.increment();
        log.error("term={} scan pass failed; the loop will keep running", term, e);
      }
    }
  }

  /** Stops scanning at once; close twice is a no-op. */
  @Override
  public void close() {
    State previous = state.getAndSet(State.CLOSED);
    if (previous == State.CLOSED) {
      return;
    }
    if (executor != null) {
      if (Thread.currentThread().getName().equals(threadName())) {
        // Closing from inside a pass (fence rejection): no self-interrupt, the pass is ending.
        executor.shutdown();
        return;
      }
      executor.shutdownNow();
      try {
        if (!executor.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          log.warn("term={} scan thread did not stop within {}", term, CLOSE_WAIT);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    log.info("term={} scan loop closed", term);
  }
}
