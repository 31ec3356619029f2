package dev.kairos.core.time;

import dev.kairos.core.error.KairosException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster time: the reference clock (Redis {@code TIME} of one designated master, see {@link
 * RedisTimeSource}) carried forward between samples by this process's monotonic clock.
 *
 * <p>Each sample reads the monotonic clock, the reference, and the monotonic clock again. The
 * reference answered somewhere inside that round trip, so its reading plus the time since the reply
 * arrived is a lower bound of reference time: a fire must never start early, so cluster time is
 * that lower bound, late by at most the round trip (by the reply's return trip in fact), never
 * ahead. Assuming the answer came half-way, as this clock did before, ran up to half a round trip
 * ahead: 22 ms under load, and fires started that early. Of the last {@link #DEFAULT_WINDOW}
 * samples the one giving the highest lower bound defines the offset (a sample delayed by GC or a
 * busy connection gives a lower one and is outvoted by a quick one). The wall clock of this machine
 * is never read, so stepping it (NTP, an operator) changes nothing, and {@link #nowMs()} never goes
 * backwards: when the best sample leaves the window and the offset drops, time stands still until
 * it catches up.
 *
 * <p>Lifecycle: {@link #start()} takes a first sample synchronously (failing if the reference is
 * unreachable) and then samples every interval on the daemon thread {@code kairos-cluster-clock}; a
 * failed sample is logged and counted and the clock keeps its last offset.
 */
public final class ClusterClock implements KairosClock, AutoCloseable {

  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
  public static final int DEFAULT_WINDOW = 8;

  private static final Logger log = LoggerFactory.getLogger(ClusterClock.class);
  private static final int START_ATTEMPTS = 3;

  private enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  /** Reference time at a local monotonic instant, and how long the reading took. */
  private record Sample(long offsetNanos, long roundTripNanos, String reference) {}

  private final ReferenceTimeSource reference;
  private final MonotonicSource monotonic;
  private final Duration interval;
  private final int window;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
  private final AtomicLong lastReturnedMs = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong samples = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  // Guarded by "this": written by the sampling thread (and start), read on every sample only.
  private final Deque<Sample> recent = new ArrayDeque<>();
  // The chosen offset (reference epoch nanos − local monotonic nanos); read on every nowMs().
  private volatile Sample best;
  private ScheduledExecutorService sampler;

  public ClusterClock(ReferenceTimeSource reference) {
    this(reference, MonotonicSource.SYSTEM, DEFAULT_INTERVAL, DEFAULT_WINDOW);
  }

  public ClusterClock(
      ReferenceTimeSource reference, MonotonicSource monotonic, Duration interval, int window) {
    this.reference = Objects.requireNonNull(reference, "reference");
    this.monotonic = Objects.requireNonNull(monotonic, "monotonic");
    this.interval = Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive but was " + interval);
    }
    if (window < 1) {
      throw new IllegalArgumentException("window must be >= 1 but was " + window);
    }
    this.window = window;
  }

  /**
   * Takes the first sample and starts periodic sampling.
   *
   * @throws IllegalStateException when already started or closed
   * @throws KairosException when the reference cannot be read
   */
  public void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException("cluster clock is " + state.get() + ", cannot start");
    }
    RuntimeException last = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS && best == null; attempt++) {
      try {
        sample();
      } catch (RuntimeException e) {
        last = e;
        failures.incrementAndGet();
      }
    }
    if (best == null) {
      state.set(State.CLOSED);
      throw new KairosException("cannot read the reference clock", last);
    }
    sampler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kairos-cluster-clock");
              t.setDaemon(true);
              return t;
            });
    long period = interval.toNanos();
    sampler.scheduleWithFixedDelay(this::sampleSafely, period, period, TimeUnit.NANOSECONDS);
  }

  /**
   * Cluster time in epoch ms.
   *
   * @throws IllegalStateException before {@link #start()}
   */
  @Override
  public long nowMs() {
    Sample current = best;
    if (current == null) {
      throw new IllegalStateException("cluster clock has no sample yet; call start() first");
    }
    long estimate = Math.floorDiv(monotonic.nanos() + current.offsetNanos, 1_000_000);
    return lastReturnedMs.accumulateAndGet(estimate, Math::max);
  }

  /**
   * Takes one sample now. The sampling thread calls this every interval; tests call it directly.
   *
   * @throws RuntimeException when the reference cannot be read
   */
  public void sample() {
    long before = monotonic.nanos();
    ReferenceTimeSource.Reading reading = reference.read();
    long after = monotonic.nanos();
    // Safety: the reference read its time before "after" (the reply arrived then), so offsetting
    // from "after" never puts cluster time ahead of the reference.
    Sample sample =
        new Sample(reading.epochMicros() * 1_000 - after, after - before, reading.reference());
    synchronized (this) {
      if (!recent.isEmpty() && !recent.peekLast().reference.equals(sample.reference)) {
        // The reference moved (failover): its clock is another one; forget the old readings.
        log.info(
            "cluster clock reference moved from {} to {}",
            recent.peekLast().reference,
            sample.reference);
        recent.clear();
      }
      recent.addLast(sample);
      while (recent.size() > window) {
        recent.removeFirst();
      }
      Sample chosen = sample;
      for (Sample s : recent) {
        if (s.offsetNanos > chosen.offsetNanos) {
          chosen = s;
        }
      }
      best = chosen;
    }
    samples.incrementAndGet();
  }

  private void sampleSafely() {
    try {
      sample();
    } catch (RuntimeException e) {
      long count = failures.incrementAndGet();
      log.warn(
          "cluster clock sample failed ({} so far); keeping the last offset, will keep running",
          count,
          e);
    }
  }

  /** Samples taken successfully. */
  public long samples() {
    return samples.get();
  }

  /** Samples that failed. */
  public long failures() {
    return failures.get();
  }

  /**
   * Round trip of the sample in use, in nanos: the most {@link #nowMs()} can be behind the
   * reference (it is never ahead).
   */
  public long roundTripNanos() {
    Sample current = best;
    return current == null ? -1 : current.roundTripNanos;
  }

  /** The reference clock in use (a master's node id and address, or "standalone"). */
  public String reference() {
    Sample current = best;
    return current == null ? "" : current.reference;
  }

  /** Stops sampling; {@link #nowMs()} keeps answering from the last offset. Idempotent. */
  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.CLOSED) {
      return;
    }
    if (sampler != null) {
      sampler.shutdownNow();
    }
  }
}
