package dev.kairos.node.fire;

import dev.kairos.core.batch.Coalescer;
import dev.kairos.core.log.LogThrottle;
import dev.kairos.core.time.KairosClock;
import dev.kairos.core.timer.TimedEntry;
import dev.kairos.core.timer.TimingWheel;
import dev.kairos.core.timer.WheelTicker;
import dev.kairos.protocol.wheel.DueTrigger;
import dev.kairos.protocol.wheel.NodeWheelStore;
import dev.kairos.protocol.wheel.WheelEntry;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's fire path (docs/design.md "Scanning, assignment, firing"): its persisted wheel in
 * Redis, mirrored by an in-memory {@link TimingWheel} driven by a {@link WheelTicker} on cluster
 * time.
 *
 * <ul>
 *   <li>At start it loads the persisted wheel up to now + pre-read; the leader's scanner tells it
 *       of new entries at once through {@link #notifyAssigned} (in process, for this node only),
 *       and every reconcile interval it re-reads the persisted wheel and adds what memory lacks,
 *       which is how entries assigned by a leader in another process, or moved here by failover,
 *       arrive.
 *   <li>When entries are due, each dispatch task calls {@code take_due} once per shard it holds
 *       entries of (all shards of a batch in parallel), which moves them wheel → inflight from this
 *       node's own keys and drops stale ones, then routes and sends the survivors asynchronously.
 *       At most {@link #TAKES_PER_SHARD} takes of a shard are out at once; the tasks that find them
 *       out share the next one.
 *   <li>At most {@code maxUnackedSends} sends await a broker answer ({@link SendWindow}); the
 *       others wait in order (they are inflight in Redis already) and go out as answers arrive.
 *   <li>Every sweep interval, inflight entries older than the resend delay (send failed, ack not
 *       recorded, the process died mid-send) go back on the wheel and are sent again.
 * </ul>
 *
 * <p>Nothing is sent earlier than the pre-dispatch lead ({@link FirePathSettings#preDispatch()})
 * before its fire time: the ticker hands out an entry only once cluster time has reached its fire
 * time minus the lead, and {@code take_due} is called with cluster time plus the lead as its upper
 * bound. The executor holds a trigger that arrives early until its fire time, on cluster time, and
 * claims its start then; nothing starts before its time.
 */
public final class NodeFirePath implements WheelNotifier, AutoCloseable {

  /** Lifecycle: start once, close any number of times. */
  public enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  private static final Logger log = LoggerFactory.getLogger(NodeFirePath.class);

  /**
   * Takes of one shard out at once. A batch that finds both out joins the next take of its shard,
   * which goes when one answers and takes up to the highest bound that queued: under load one
   * script takes what many batches handed out, and the takes in flight stay bounded (at most 2 per
   * shard, 128 for 64 shards) instead of growing with the fire rate until Redis answers slower than
   * the command timeout and every take fails (W2 5,000: thousands a second).
   */
  static final int TAKES_PER_SHARD = 2;

  private final NodeWheelStore store;
  private final KairosClock clock;
  private final FirePathSettings settings;
  private final FireMeters meters;
  private final TriggerDispatcher dispatcher;
  private final SendWindow window;
  private final DeferredAcks deferredAcks;
  private final TimingWheel<Integer> wheel;
  private final WheelTicker<Integer> ticker;
  private final ThreadPoolExecutor dispatchExecutor;
  private final ThreadPoolExecutor ackExecutor;
  private final ScheduledExecutorService loops;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
  private final Coalescer<Integer, Long, List<DueTrigger>> takes =
      new Coalescer<>(this::takeGroup, FirePathSettings.PER_SHARD_LIMIT, TAKES_PER_SHARD);
  private final LogThrottle takeFailures =
      new LogThrottle(Duration.ofSeconds(10), System::nanoTime);

  /** {@link FirePathSettings#preDispatch()} in ms. */
  private final long leadMs;

  /** Set once by a drain: due entries stay in the persisted wheel for the leader to move. */
  private volatile boolean quiesced;

  public NodeFirePath(
      NodeWheelStore store,
      SlotRouter router,
      TopicEnsurer topics,
      TriggerSender sender,
      KairosClock clock,
      LongSupplier term,
      FirePathSettings settings,
      MeterRegistry meterRegistry) {
    this.store = store;
    this.clock = clock;
    this.settings = settings;
    this.leadMs = settings.preDispatch().toMillis();
    String node = store.node();
    this.meters = new FireMeters(meterRegistry, node);
    this.dispatchExecutor = pool("kairos-dispatch-" + node, settings.dispatchThreads());
    this.ackExecutor = pool("kairos-ack-" + node, settings.ackThreads());
    this.loops =
        Executors.newSingleThreadScheduledExecutor(named("kairos-fire-loops-" + node, false));
    this.window =
        new SendWindow(
            settings.maxUnackedSends(),
            FirePathSettings.QUEUE_CAPACITY,
            settings.resendAfter().toNanos(),
            System::nanoTime);
    this.deferredAcks =
        settings.ackLinger().isZero()
            ? null
            : new DeferredAcks(
                store,
                store.shards(),
                settings.ackLinger().toMillis(),
                NodeWheelStore.MAX_ACK_GROUP,
                loops);
    this.dispatcher =
        new TriggerDispatcher(
            store,
            router,
            topics,
            sender,
            clock,
            term,
            ackExecutor,
            dispatchExecutor,
            loops,
            meters,
            window,
            settings.noExecutorGrace().toMillis(),
            deferredAcks);
    this.wheel = new TimingWheel<>(clock.nowMs(), settings.maxPending());
    this.ticker =
        WheelTicker.withAsyncConsumer(
            "kairos-wheel-" + node,
            wheel,
            clock,
            dispatchExecutor,
            settings.batchSize(),
            WheelTicker.DEFAULT_MAX_PARK,
            settings.wheelTick(),
            this::fire);
    Gauge.builder("kairos.fires.window.in.use", window, SendWindow::inUse)
        .description("sends awaiting a broker answer (bounded by kairos.fire.max-unacked-sends)")
        .tag("node", node)
        .register(meterRegistry);
    Gauge.builder("kairos.fires.window.waiting", window, SendWindow::waiting)
        .description("due triggers (already inflight in Redis) waiting for the send window")
        .tag("node", node)
        .register(meterRegistry);
    FunctionCounter.builder("kairos.fires.window.expired", window, SendWindow::expired)
        .description("triggers that waited for the send window past the re-send delay (swept)")
        .tag("node", node)
        .register(meterRegistry);
    Gauge.builder("kairos.wheel.pending", wheel, TimingWheel::size)
        .description("entries waiting in this node's in-memory wheel")
        .tag("node", node)
        .register(meterRegistry);
  }

  /** Loads the persisted wheel, then starts the ticker, the reconcile and the inflight sweeper. */
  public void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException("fire path of " + store.node() + " is " + state.get());
    }
    int loaded = reconcile();
    ticker.start();
    long reconcileMs = settings.reconcileInterval().toMillis();
    long sweepMs = settings.sweepInterval().toMillis();
    loops.scheduleWithFixedDelay(
        () -> safely("reconcile", this::reconcile),
        reconcileMs,
        reconcileMs,
        TimeUnit.MILLISECONDS);
    loops.scheduleWithFixedDelay(
        () -> safely("inflight sweep", this::sweepInflight),
        sweepMs,
        sweepMs,
        TimeUnit.MILLISECONDS);
    log.info(
        "node={} fire path started: {} wheel entries loaded, reconcile every {} ms",
        store.node(),
        loaded,
        reconcileMs);
  }

  public State state() {
    return state.get();
  }

  public String node() {
    return store.node();
  }

  /** Entries waiting in memory. */
  public int pending() {
    return wheel.size();
  }

  /**
   * Stops taking due entries off the persisted wheel (a drain): what is already taken goes out and
   * is acknowledged as usual, everything else stays in Redis, where the leader moves it to the
   * other nodes. There is no way back; a drained node is restarted.
   */
  public void quiesce() {
    if (!quiesced) {
      quiesced = true;
      log.info("node={} fire path quiesced: no more due entries are taken", store.node());
    }
  }

  /**
   * Whether a quiesced fire path has nothing of its own in flight: no batch handed to a take, no
   * send awaiting a broker answer or the send window. Recorded acks are read from Redis (the node's
   * inflight keys), not here.
   */
  public boolean quiet() {
    return quiesced && ticker.handedOutCount() == 0 && window.inUse() == 0 && window.waiting() == 0;
  }

  /**
   * The leader assigned entries (called on a Redis reply thread: never blocks). Entries of other
   * nodes are ignored here; those nodes find them by their reconcile.
   */
  @Override
  public void notifyAssigned(String node, Collection<WheelEntry> in) {
    if (!store.node().equals(node) || state.get() != State.STARTED) {
      return;
    }
    for (WheelEntry entry : in) {
      ticker.add(timed(entry));
    }
  }

  /**
   * Re-reads the persisted wheel up to now + pre-read and adds what memory lacks. An entry the
   * ticker has handed out to a dispatch task that has not taken it yet is not lacking: it waits in
   * the dispatch queue (adding it again would queue the whole backlog once more every pass).
   *
   * @return how many entries were added
   */
  int reconcile() {
    if (quiesced) {
      return 0; // the entries are the leader's to move now; re-adding them would only spin
    }
    long now = clock.nowMs();
    List<WheelEntry> persisted =
        store.loadWheel(now + settings.preRead().toMillis(), FirePathSettings.PER_SHARD_LIMIT);
    int added = 0;
    for (WheelEntry entry : persisted) {
      if (!wheel.contains(entry.triggerId()) && !ticker.isHandedOut(entry.triggerId())) {
        ticker.add(timed(entry));
        added++;
      }
    }
    if (added > 0 && state.get() == State.STARTED) {
      meters.reconcileAdded.increment(added);
      log.debug("node={} reconcile added {} wheel entries", store.node(), added);
    }
    return added;
  }

  /**
   * The in-memory wheel's entry of a persisted one: due when it is to be taken and sent, the
   * pre-dispatch lead before its fire time (the executor holds it until then).
   */
  private TimedEntry<Integer> timed(WheelEntry entry) {
    return new TimedEntry<>(entry.triggerId(), entry.fireMs() - leadMs, entry.shard());
  }

  /** Puts inflight entries older than the resend delay back on the wheel; they fire at once. */
  int sweepInflight() {
    long olderThan = clock.nowMs() - settings.resendAfter().toMillis();
    List<WheelEntry> requeued = store.requeueInflight(olderThan, FirePathSettings.PER_SHARD_LIMIT);
    for (WheelEntry entry : requeued) {
      ticker.add(timed(entry));
    }
    return requeued.size();
  }

  /**
   * One dispatch task: starts the take of the batch's shards off the persisted wheel (one script
   * per shard, all in flight together) and returns; each shard's survivors are sent from a dispatch
   * thread when its take answers. No dispatch thread waits for Redis, so the round trips of many
   * batches overlap instead of capping the fire rate at threads ÷ round trip. The returned stage
   * completes when every take answered and its entries were handed to the dispatcher; until then
   * the ticker keeps the batch marked handed-out, so the reconcile skips it.
   */
  private CompletableFuture<Void> fire(List<TimedEntry<Integer>> batch) {
    if (quiesced) {
      // Safety: nothing taken, so the leader's move (not this node) owns these entries now.
      return CompletableFuture.completedFuture(null);
    }
    // Per shard, the latest fire time of this batch: the take moves only entries up to it, so
    // concurrent batches of one instant split the work instead of the first taking everything.
    Map<Integer, Long> upTo = new TreeMap<>();
    for (TimedEntry<Integer> entry : batch) {
      upTo.merge(entry.payload(), entry.fireMs() + leadMs, Math::max);
    }
    long now = clock.nowMs();
    List<CompletableFuture<Void>> taken = new ArrayList<>(upTo.size());
    for (Map.Entry<Integer, Long> shard : upTo.entrySet()) {
      // Safety: never above cluster time + the lead, so nothing is sent earlier than the lead
      // before it is due (the executor holds it until its fire time, on cluster time too).
      long bound = Math.min(shard.getValue(), now + leadMs);
      taken.add(
          takes
              .submit(shard.getKey(), bound)
              // The answer arrives on a Redis reply thread, which must never block: routing may
              // read slot leases synchronously, so the survivors go to a dispatch thread.
              .thenCompose(
                  due ->
                      due.isEmpty()
                          ? CompletableFuture.<Void>completedFuture(null)
                          : CompletableFuture.runAsync(
                              () -> dispatcher.dispatchAll(due), dispatchExecutor))
              .exceptionally(failure -> takeFailed(shard.getKey(), failure)));
    }
    return CompletableFuture.allOf(taken.toArray(CompletableFuture[]::new));
  }

  /**
   * One take for the batches of a shard that queued together: up to the highest of their bounds
   * (each already at most cluster time), so it takes every entry any of them handed out. The whole
   * answer goes to the first batch, which dispatches it; the others get nothing to send.
   */
  private CompletionStage<List<List<DueTrigger>>> takeGroup(int shard, List<Long> bounds) {
    long bound = Collections.max(bounds);
    meters.takeCalls.increment();
    return store
        .takeDueAsync(shard, bound, FirePathSettings.PER_SHARD_LIMIT, clock.nowMs())
        .thenApply(
            result -> {
              List<List<DueTrigger>> answers = new ArrayList<>(bounds.size());
              answers.add(result.due());
              for (int i = 1; i < bounds.size(); i++) {
                answers.add(List.of());
              }
              return answers;
            });
  }

  /**
   * A take that failed or timed out left its entries in the persisted wheel (the reconcile re-reads
   * them); one whose answer could not be handed to a dispatch thread (closing, or the queue full)
   * left them in inflight (the sweeper re-sends them).
   */
  private Void takeFailed(int shard, Throwable failure) {
    meters.takeErrors.increment();
    long failures = takeFailures.record(1);
    if (failures > 0) {
      // Throttled: under overload every take of a timed-out batch fails together.
      log.warn(
          "node={} {} take_due calls or their dispatch failed since the last such line, the"
              + " latest of shard {} ({}); the reconcile or the inflight sweeper brings their"
              + " entries back",
          store.node(),
          failures,
          shard,
          failure.toString());
    }
    return null;
  }

  private void safely(String what, Runnable round) {
    try {
      round.run();
    } catch (RuntimeException e) {
      if (state.get() != State.STARTED) {
        return; // close() interrupted the call in flight: not a failure
      }
      meters.loopErrors.increment();
      log.warn("node={} {} failed; will keep running", store.node(), what, e);
    }
  }

  /** Stops firing; entries stay in Redis (wheel or inflight). Waits for pending acks briefly. */
  @Override
  public void close() {
    State previous = state.getAndSet(State.CLOSED);
    if (previous == State.CLOSED) {
      return;
    }
    if (deferredAcks != null) {
      // Best effort: an ack not recorded leaves its trigger inflight, sent again by whoever
      // takes this node's entries (the executor reports the copy DUPLICATE).
      deferredAcks.close();
    }
    loops.shutdownNow();
    ticker.close();
    dispatchExecutor.shutdown();
    ackExecutor.shutdown();
    try {
      if (!dispatchExecutor.awaitTermination(5, TimeUnit.SECONDS)
          || !ackExecutor.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("node={} fire path threads did not stop within 5 s", store.node());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    dispatchExecutor.shutdownNow();
    ackExecutor.shutdownNow();
    log.info("node={} fire path closed", store.node());
  }

  private static ThreadPoolExecutor pool(String name, int threads) {
    return new ThreadPoolExecutor(
        threads,
        threads,
        60,
        TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(FirePathSettings.QUEUE_CAPACITY),
        named(name, true));
  }

  private static ThreadFactory named(String prefix, boolean numbered) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread thread = new Thread(r, numbered ? prefix + "-" + count.incrementAndGet() : prefix);
      thread.setDaemon(true);
      return thread;
    };
  }
}
