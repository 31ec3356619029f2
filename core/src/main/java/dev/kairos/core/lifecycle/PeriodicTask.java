package dev.kairos.core.lifecycle;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pass, then waits an interval, again and again while started, on one named daemon thread
 * ({@link LoopThread}): a leader's watch, schedule or driver that works "every tick". The interval
 * is read after each pass, so it may change between passes; the first pass runs at start.
 *
 * <p>A pass that throws is handed to the failure handler (by default: logged with the component's
 * name) and the loop goes on; a pass cut short by {@link #close()} (it interrupts the thread) is
 * not a failure. {@link #close()} wakes the wait at once and joins the thread, so a long interval
 * never holds a close up; the state machine is core's {@link Lifecycle} (start once, close any
 * number of times).
 */
public final class PeriodicTask implements AutoCloseable {

  /** One pass of the loop; it may throw (a JDBC call's {@code SQLException}, say). */
  @FunctionalInterface
  public interface Pass {
    void run() throws Exception;
  }

  private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);

  /** The longest wait between two passes (a year): keeps the deadline's arithmetic in range. */
  private static final long MAX_WAIT_NANOS = Duration.ofDays(365).toNanos();

  private final String component;
  private final String threadName;
  private final Supplier<Duration> interval;
  private final Pass pass;
  private final Consumer<Exception> onFailure;
  private final Lifecycle lifecycle;
  private volatile LoopThread thread;

  /**
   * @param component what runs, for logs and the lifecycle's messages ("backfill driver")
   * @param threadName the loop thread's name
   * @param interval the wait after each pass, asked after each pass; positive
   * @param pass one pass; called only on the loop thread
   * @param onFailure what a pass that threw does (count it, log it with the component's name);
   *     called on the loop thread, which goes on with the next pass
   */
  public PeriodicTask(
      String component,
      String threadName,
      Supplier<Duration> interval,
      Pass pass,
      Consumer<Exception> onFailure) {
    this.component = Objects.requireNonNull(component, "component");
    this.threadName = Objects.requireNonNull(threadName, "threadName");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.pass = Objects.requireNonNull(pass, "pass");
    this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
    this.lifecycle = new Lifecycle(component);
  }

  /** A task with a fixed interval whose failed passes are logged with the component's name. */
  public PeriodicTask(String component, String threadName, Duration interval, Pass pass) {
    this(
        component,
        threadName,
        fixed(interval),
        pass,
        e -> log.warn("{} pass failed; will keep running: {}", component, e.toString()));
  }

  /** A task with a fixed interval and its own failure handler. */
  public PeriodicTask(
      String component,
      String threadName,
      Duration interval,
      Pass pass,
      Consumer<Exception> onFailure) {
    this(component, threadName, fixed(interval), pass, onFailure);
  }

  private static Supplier<Duration> fixed(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive but was " + interval);
    }
    return () -> interval;
  }

  /** Starts the loop thread; its first pass runs at once. Throws if started before or closed. */
  public void start() {
    lifecycle.start();
    thread = LoopThread.start(threadName, this::loop);
  }

  /** Whether the task was started, is not closed and its thread still runs. */
  public boolean isRunning() {
    LoopThread t = thread;
    return lifecycle.isStarted() && t != null && t.isAlive();
  }

  private void loop() {
    while (lifecycle.isStarted() && !Thread.currentThread().isInterrupted()) {
      runPass();
      pause();
    }
  }

  private void runPass() {
    try {
      pass.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the loop ends; a close() is what interrupts it
      if (lifecycle.isStarted()) {
        log.warn("{} pass interrupted while started; the loop stops", component);
      }
    } catch (Exception e) {
      if (!lifecycle.isStarted()) {
        return; // cut short by close(): not a failure
      }
      try {
        onFailure.accept(e);
      } catch (RuntimeException handlerFailed) {
        log.warn("{} failure handler threw: {}", component, handlerFailed.toString());
      }
    } catch (Error e) {
      log.error("{} loop stops: {}", component, e.toString(), e);
      throw e;
    }
  }

  /**
   * Waits the interval unless closed first. Safety: close() moves the lifecycle to CLOSED before it
   * interrupts the thread, and an interrupt ends a park at once, so no wait outlives a close.
   */
  private void pause() {
    long nanos;
    try {
      nanos = Math.min(MAX_WAIT_NANOS, Math.max(1, interval.get().toNanos()));
    } catch (RuntimeException e) { // null, or too long for nanoseconds
      log.warn("{} interval unreadable, waiting 1 s: {}", component, e.toString());
      nanos = Duration.ofSeconds(1).toNanos();
    }
    long deadline = System.nanoTime() + nanos;
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      if (!lifecycle.isStarted() || Thread.currentThread().isInterrupted()) {
        return;
      }
      LockSupport.parkNanos(this, left);
    }
  }

  /**
   * Stops the loop: wakes its wait, interrupts a running pass and joins the thread (up to {@link
   * LoopThread#JOIN_TIMEOUT}). Returns whether this call stopped a started task (false when it was
   * never started or already closed).
   */
  public boolean stop() {
    if (!lifecycle.closeStarted()) {
      return false;
    }
    LoopThread t = thread;
    if (t != null) {
      t.close();
    }
    return true;
  }

  /** {@link #stop()}; idempotent. */
  @Override
  public void close() {
    stop();
  }

  @Override
  public String toString() {
    return component + " (" + threadName + ", " + lifecycle.state() + ")";
  }
}
