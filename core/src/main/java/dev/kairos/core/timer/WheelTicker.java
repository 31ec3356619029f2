package dev.kairos.core.timer;

import dev.kairos.core.time.KairosClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a {@link TimingWheel} from one named thread: it parks until the earliest entry is due
 * (nanosecond park, no fixed tick), is woken early when an earlier entry arrives, and hands due
 * entries in batches to a consumer on the dispatch executor, so a burst of thousands due in the
 * same millisecond is sent in parallel rather than one by one on the ticker thread.
 *
 * <p>An entry is never handed out before the clock says its fire time has come. Losing one in
 * memory (a rejected batch, a consumer failure) is logged and counted; the persisted wheel in Redis
 * still holds it and the reconcile loop adds it back. An entry handed out but whose consumer call
 * has not returned yet ({@link #isHandedOut}) is still in the persisted wheel too, waiting in the
 * executor's queue: the reconcile loop must not add that one again, or under load every pass would
 * queue the whole backlog once more and the queue would only grow.
 */
public final class WheelTicker<P> implements AutoCloseable {

  /** Lifecycle: start once, close any number of times. */
  public enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  /**
   * Longest park even when nothing is due sooner: the injected clock may be re-based (cluster time
   * re-sampled, a test setting it), which no add signals.
   */
  public static final Duration DEFAULT_MAX_PARK = Duration.ofSeconds(1);

  public static final int DEFAULT_BATCH_SIZE = 256;

  /** Coarsest hand-out grid: entries may be this much late by design, never more. */
  public static final Duration MAX_TICK = Duration.ofMillis(100);

  private static final Logger log = LoggerFactory.getLogger(WheelTicker.class);

  private final TimingWheel<P> wheel;
  private final KairosClock clock;
  private final Function<List<TimedEntry<P>>, ? extends CompletionStage<?>> consumer;
  private final Executor dispatchExecutor;
  private final int batchSize;
  private final long maxParkNanos;
  private final long tickMs;
  private final Thread thread;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);

  /** Fire time the ticker is parked until; an add of anything earlier unparks it. */
  private volatile long wakeAtMs = Long.MIN_VALUE;

  private final LongAdder dispatched = new LongAdder();
  private final LongAdder loopErrors = new LongAdder();
  private final LongAdder dispatchErrors = new LongAdder();
  private final LongAdder rejectedBatches = new LongAdder();

  /**
   * Trigger ids handed to the dispatch executor whose consumer call has not returned, with how many
   * hand-offs of each are outstanding (an id can be handed out again meanwhile, e.g. re-sent).
   */
  private final Map<String, Integer> handedOut = new ConcurrentHashMap<>();

  /**
   * @param name the ticker thread's name
   * @param consumer receives due entries, at most {@code batchSize} per call, on the executor
   */
  public WheelTicker(
      String name,
      TimingWheel<P> wheel,
      KairosClock clock,
      Executor dispatchExecutor,
      int batchSize,
      Duration maxPark,
      Consumer<List<TimedEntry<P>>> consumer) {
    this(
        name,
        wheel,
        clock,
        dispatchExecutor,
        batchSize,
        maxPark,
        Duration.ZERO,
        batch -> {
          consumer.accept(batch);
          return CompletableFuture.completedFuture(null);
        });
  }

  /**
   * A ticker whose consumer finishes asynchronously: a batch stays handed out ({@link
   * #isHandedOut}) until the returned stage completes, so a dispatch thread does not wait for Redis
   * while the batch is still protected from a reconcile adding it again.
   *
   * @param tick the grid entries are handed out on: an entry due at {@code t} goes at the first
   *     multiple of the tick (epoch ms) at or after {@code t}, together with every other entry of
   *     that tick, never before {@code t}; zero (or 1 ms) hands each out at its own millisecond
   * @param consumer receives due entries on the executor and returns when it started their work;
   *     the stage completes when that work is done
   */
  public static <P> WheelTicker<P> withAsyncConsumer(
      String name,
      TimingWheel<P> wheel,
      KairosClock clock,
      Executor dispatchExecutor,
      int batchSize,
      Duration maxPark,
      Duration tick,
      Function<List<TimedEntry<P>>, ? extends CompletionStage<?>> consumer) {
    return new WheelTicker<>(
        name, wheel, clock, dispatchExecutor, batchSize, maxPark, tick, consumer);
  }

  private WheelTicker(
      String name,
      TimingWheel<P> wheel,
      KairosClock clock,
      Executor dispatchExecutor,
      int batchSize,
      Duration maxPark,
      Duration tick,
      Function<List<TimedEntry<P>>, ? extends CompletionStage<?>> consumer) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    if (maxPark.isNegative() || maxPark.isZero()) {
      throw new IllegalArgumentException("maxPark must be positive: " + maxPark);
    }
    this.wheel = Objects.requireNonNull(wheel, "wheel");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.dispatchExecutor = Objects.requireNonNull(dispatchExecutor, "dispatchExecutor");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.batchSize = batchSize;
    this.maxParkNanos = maxPark.toNanos();
    if (tick.isNegative() || tick.compareTo(MAX_TICK) > 0) {
      throw new IllegalArgumentException("tick must be 0 to " + MAX_TICK + ": " + tick);
    }
    this.tickMs = Math.max(1, tick.toMillis());
    this.thread = new Thread(this::run, Objects.requireNonNull(name, "name"));
    this.thread.setDaemon(true);
  }

  public void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException("wheel ticker " + thread.getName() + " is " + state.get());
    }
    thread.start();
  }

  /**
   * Schedules an entry. One already due by the clock is dispatched at once; otherwise it waits in
   * the wheel, and the ticker is woken if the entry is earlier than what it is parked for.
   */
  public TimingWheel.AddResult add(TimedEntry<P> entry) {
    if (entry.fireMs() <= clock.nowMs()) {
      dispatch(List.of(entry));
      return TimingWheel.AddResult.DUE;
    }
    TimingWheel.AddResult result = wheel.add(entry);
    if (result == TimingWheel.AddResult.DUE) {
      dispatch(List.of(entry));
    } else if (result == TimingWheel.AddResult.SCHEDULED && handOutAt(entry.fireMs()) < wakeAtMs) {
      // Safety: the insert above happens before this read of wakeAtMs, and the ticker writes
      // wakeAtMs before re-reading the wheel; so either it sees this entry or we see its new
      // wakeAtMs and unpark it. A spurious unpark costs one extra loop.
      LockSupport.unpark(thread);
    }
    return result;
  }

  public TimedEntry<P> remove(String triggerId) {
    return wheel.remove(triggerId);
  }

  /** Makes the ticker re-read the clock now, e.g. after the cluster clock offset changed. */
  public void wakeUp() {
    LockSupport.unpark(thread);
  }

  /**
   * Whether {@code triggerId} was handed to the dispatch executor and its consumer call has not
   * returned: queued or running. Such an entry may still be in the persisted wheel (its consumer
   * has not taken it yet); a reconcile must not add it again.
   */
  public boolean isHandedOut(String triggerId) {
    return handedOut.containsKey(triggerId);
  }

  /** Entries handed out whose consumer call has not returned. */
  public int handedOutCount() {
    return handedOut.size();
  }

  /** Fire time the ticker last parked for ({@code Long.MAX_VALUE}: nothing pending); for tests. */
  long wakeAtMs() {
    return wakeAtMs;
  }

  public State state() {
    return state.get();
  }

  /** Entries handed to the consumer so far. */
  public long dispatchedCount() {
    return dispatched.sum();
  }

  /** Unexpected failures of the ticker loop (it keeps running). */
  public long loopErrorCount() {
    return loopErrors.sum();
  }

  /** Batches the executor refused or the consumer failed on. */
  public long dispatchErrorCount() {
    return dispatchErrors.sum();
  }

  /** Stops the ticker thread and waits for it; pending entries stay in the wheel. */
  @Override
  public void close() {
    State previous = state.getAndSet(State.CLOSED);
    if (previous != State.STARTED) {
      return;
    }
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      log.warn("Wheel ticker {} did not stop within 5 s", thread.getName());
    }
  }

  private void run() {
    while (state.get() == State.STARTED) {
      try {
        tick();
      } catch (RuntimeException | Error e) {
        loopErrors.increment();
        log.error("Wheel ticker {} failed a tick; will keep running", thread.getName(), e);
        LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(10)); // no hot failure loop
      }
    }
  }

  /** One round: hand out what is due, then park until the next entry is (or an add wakes us). */
  private void tick() {
    List<TimedEntry<P>> due = wheel.advanceTo(clock.nowMs());
    if (!due.isEmpty()) {
      dispatch(due);
    }
    OptionalLong next = wheel.nextFireMs();
    long target = next.isPresent() ? handOutAt(next.getAsLong()) : Long.MAX_VALUE;
    wakeAtMs = target;
    // Re-read after publishing wakeAtMs: an add that raced with the read above is seen here.
    OptionalLong recheck = wheel.nextFireMs();
    if (recheck.isPresent() && handOutAt(recheck.getAsLong()) < target) {
      return;
    }
    long now = clock.nowMs();
    if (target <= now) {
      return;
    }
    long waitNanos =
        target == Long.MAX_VALUE
            ? maxParkNanos
            : Math.min(maxParkNanos, TimeUnit.MILLISECONDS.toNanos(target - now));
    LockSupport.parkNanos(this, waitNanos);
    // Parked or not, the loop re-reads the clock, so an early return from park fires nothing early.
  }

  /** When an entry due at {@code fireMs} is handed out: the end of its tick, never earlier. */
  long handOutAt(long fireMs) {
    if (tickMs == 1 || fireMs == Long.MAX_VALUE) {
      return fireMs;
    }
    long rest = Math.floorMod(fireMs, tickMs);
    return rest == 0 ? fireMs : fireMs - rest + tickMs;
  }

  private void dispatch(List<TimedEntry<P>> due) {
    for (int from = 0; from < due.size(); from += batchSize) {
      List<TimedEntry<P>> batch = due.subList(from, Math.min(due.size(), from + batchSize));
      // Safety: marked before the hand-off, so a reconcile never sees an entry that is neither in
      // the wheel nor marked while it waits in the executor's queue.
      batch.forEach(e -> handedOut.merge(e.triggerId(), 1, Integer::sum));
      try {
        dispatchExecutor.execute(() -> deliver(batch));
      } catch (RejectedExecutionException e) {
        release(batch);
        dispatchErrors.increment();
        rejectedBatches.increment();
        long count = rejectedBatches.sum();
        if (Long.bitCount(count) == 1) { // 1st, 2nd, 4th, 8th... refusal: visible, not a flood
          log.error(
              "Dispatch executor refused {} due entries (first {}; {} refused batches so far);"
                  + " the reconcile loop re-reads them from the persisted wheel",
              batch.size(),
              batch.get(0).triggerId(),
              count);
        }
      }
    }
  }

  private void deliver(List<TimedEntry<P>> batch) {
    CompletionStage<?> done;
    try {
      done = consumer.apply(batch);
    } catch (RuntimeException e) {
      failed(batch, e);
      release(batch);
      return;
    }
    done.whenComplete(
        (ignored, failure) -> {
          if (failure == null) {
            dispatched.add(batch.size());
          } else {
            failed(batch, failure);
          }
          release(batch);
        });
  }

  private void failed(List<TimedEntry<P>> batch, Throwable failure) {
    dispatchErrors.increment();
    log.error(
        "Dispatch of {} due entries (first {}) failed; will keep running",
        batch.size(),
        batch.get(0).triggerId(),
        failure);
  }

  private void release(List<TimedEntry<P>> batch) {
    batch.forEach(e -> handedOut.computeIfPresent(e.triggerId(), (id, n) -> n == 1 ? null : n - 1));
  }
}
