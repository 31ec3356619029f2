package dev.kairos.node.fire;

import dev.kairos.core.time.KairosClock;
import dev.kairos.node.route.Route;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.wheel.DueTrigger;
import dev.kairos.protocol.wheel.NodeWheelStore;
import dev.kairos.protocol.wheel.NodeWheelStore.DispatchAck;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Sends triggers already moved to this node's inflight set: routes each to a live executor slot,
 * publishes it asynchronously within a bounded {@link SendWindow} and, once the broker acknowledged
 * it, records DISPATCHED (removing the inflight entry) with a non-blocking, pipelined script call.
 * What fails stays inflight (docs/design.md "Ownership and crash windows": "send fails or times out
 * on a live node"), and the inflight sweeper re-sends it. A trigger that finds no live executor
 * slot waits for one, re-checked every second, for the no-executor grace before it ends
 * NO_EXECUTOR: leases lapse for a few seconds when Redis restarts or executors re-register after a
 * restart, and a fire routed in that gap must not end at once.
 *
 * <p>Runs on the dispatch threads, which may block on the first fire of a handler (topic creation)
 * and once per second per app (slot leases); broker callbacks never block: they only hand the ack
 * to the ack executor.
 */
final class TriggerDispatcher {

  private static final Logger log = LoggerFactory.getLogger(TriggerDispatcher.class);

  /** Sends of one trigger by this node before it is left to the inflight sweeper. */
  static final int MAX_SEND_ATTEMPTS = 3;

  static final long RETRY_BACKOFF_MS = 500;

  /** How often a trigger waiting for a live executor slot routes again (the slot cache's TTL). */
  static final long NO_EXECUTOR_RECHECK_MS = 1_000;

  private final NodeWheelStore store;
  private final SlotRouter router;
  private final TopicEnsurer topics;
  private final TriggerSender sender;
  private final KairosClock clock;
  private final LongSupplier term;
  private final Executor ackExecutor;
  private final Executor dispatchExecutor;
  private final ScheduledExecutorService retryTimer;
  private final FireMeters meters;
  private final SendWindow window;
  private final BroadcastDispatcher broadcasts;
  private final long noExecutorGraceMs;

  /** Null: each ack is recorded at once. */
  private final DeferredAcks deferredAcks;

  TriggerDispatcher(
      NodeWheelStore store,
      SlotRouter router,
      TopicEnsurer topics,
      TriggerSender sender,
      KairosClock clock,
      LongSupplier term,
      Executor ackExecutor,
      Executor dispatchExecutor,
      ScheduledExecutorService retryTimer,
      FireMeters meters,
      SendWindow window,
      long noExecutorGraceMs,
      DeferredAcks deferredAcks) {
    this.store = store;
    this.router = router;
    this.topics = topics;
    this.sender = sender;
    this.clock = clock;
    this.term = term;
    this.ackExecutor = ackExecutor;
    this.dispatchExecutor = dispatchExecutor;
    this.retryTimer = retryTimer;
    this.meters = meters;
    this.window = window;
    this.noExecutorGraceMs = noExecutorGraceMs;
    this.deferredAcks = deferredAcks;
    this.broadcasts =
        new BroadcastDispatcher(store, router, sender, clock, term, ackExecutor, meters);
  }

  void dispatchAll(List<DueTrigger> due) {
    for (DueTrigger trigger : due) {
      admit(trigger, 1, 0);
    }
  }

  /**
   * Dispatches now if the send window has room, later (in order) if not.
   *
   * @param waitingSinceMs when the trigger first found no live executor slot, 0 if it has not
   */
  private void admit(DueTrigger trigger, int attempt, long waitingSinceMs) {
    if (!window.submit(() -> dispatchLogged(trigger, attempt, waitingSinceMs))) {
      // Already in this node's inflight set: the sweeper re-sends it. Counted, not logged per fire.
      meters.windowOverflow.increment();
    }
  }

  /** Runs holding a place in the send window; gives it back unless a send now holds it. */
  private void dispatchLogged(DueTrigger trigger, int attempt, long waitingSinceMs) {
    MDC.put("jobId", trigger.jobId());
    MDC.put("triggerId", trigger.triggerId());
    boolean sending = false;
    try {
      sending = dispatch(trigger, attempt, waitingSinceMs);
    } catch (RuntimeException e) {
      meters.sendFailures.increment();
      log.warn(
          "trigger {} not sent ({}); it stays inflight and the inflight sweeper re-sends it",
          trigger.triggerId(),
          e.toString());
    } finally {
      MDC.remove("jobId");
      MDC.remove("triggerId");
      if (!sending) {
        releaseWindow();
      }
    }
  }

  /** Hands the place to the next waiting send, on a dispatch thread (it may block briefly). */
  private void releaseWindow() {
    Runnable next = window.release();
    while (next != null) {
      try {
        dispatchExecutor.execute(next);
        return;
      } catch (RejectedExecutionException e) {
        // Closing or saturated: that send stays inflight for the sweeper; free its place too.
        meters.windowOverflow.increment();
        next = window.release();
      }
    }
  }

  /** Returns true when a send started: its completion releases the window place. */
  private boolean dispatch(DueTrigger trigger, int attempt, long waitingSinceMs) {
    // A "trigger now" on a chosen slot goes there or waits for it; its job's routing is not asked.
    Route route =
        trigger.hasTargetSlot()
            ? router.routeTo(trigger.app(), trigger.handler(), trigger.targetSlot())
            : router.route(trigger.app(), trigger.handler(), trigger.jobId(), trigger.routing());
    long now = clock.nowMs();
    if (route.isEmpty()) {
      // A trigger sent ahead of its fire time waits for an executor from its fire time on.
      long since = waitingSinceMs > 0 ? waitingSinceMs : Math.max(now, trigger.fireMs());
      if (now - since < noExecutorGraceMs && waitForExecutor(trigger, attempt, since)) {
        return false;
      }
      String message =
          "no live executor of app "
              + trigger.app()
              + " hosts handler "
              + trigger.handler()
              + (trigger.hasTargetSlot() ? " in slot " + trigger.targetSlot() : "");
      store
          .recordNoExecutorAsync(
              trigger.shard(), trigger.triggerId(), trigger.jobId(), message, now)
          .whenCompleteAsync(
              (recorded, failure) -> noExecutorRecorded(trigger, message, recorded, failure),
              ackExecutor);
      return false;
    }
    topics.ensure(TopicNames.handlerTopic(trigger.app(), trigger.handler()));
    if (route.broadcast()) {
      broadcasts.dispatch(trigger, route, this::releaseWindow);
      return true;
    }
    TriggerMessage message =
        TriggerMessage.of(
            trigger.triggerId(),
            trigger.app(),
            trigger.handler(),
            trigger.fireMs(),
            trigger.attempt(),
            trigger.params(),
            0,
            1,
            trigger.timeoutMs(),
            trigger.block(),
            term.getAsLong(),
            now);
    int chosen = route.slot();
    meters.lateness.record(Math.max(0, now - trigger.fireMs()), TimeUnit.MILLISECONDS);
    sender
        .send(message, chosen)
        .whenComplete(
            (ok, failure) -> {
              releaseWindow();
              settle(trigger, chosen, attempt, failure);
            });
    return true;
  }

  private void noExecutorRecorded(
      DueTrigger trigger, String message, Boolean recorded, Throwable failure) {
    try (var ids = TriggerMdc.of(trigger)) {
      if (failure != null) {
        meters.ackErrors.increment();
        log.warn(
            "NO_EXECUTOR of trigger {} not recorded ({}); it stays inflight and is re-tried",
            trigger.triggerId(),
            failure.toString());
      } else if (recorded) {
        meters.noExecutor.increment();
        log.info("trigger {} ended NO_EXECUTOR: {}", trigger.triggerId(), message);
      }
    }
  }

  /**
   * Runs on a broker callback thread, which has no MDC of ours: the trigger's MDC is set only where
   * something is logged, not on the success path every fire takes.
   */
  private void settle(DueTrigger trigger, int chosen, int attempt, Throwable failure) {
    if (failure == null) {
      acknowledge(trigger, chosen);
      return;
    }
    meters.sendFailures.increment();
    router.invalidate(trigger.app());
    boolean retry = attempt < MAX_SEND_ATTEMPTS && retryLater(trigger, attempt + 1);
    try (var ids = TriggerMdc.of(trigger)) {
      log.warn(
          "send {} of trigger {} to slot {} failed ({}); {}",
          attempt,
          trigger.triggerId(),
          chosen,
          failure.toString(),
          retry
              ? "sending again shortly"
              : "it stays inflight and the inflight sweeper re-sends it");
    }
  }

  /**
   * Routes the trigger again after {@link #NO_EXECUTOR_RECHECK_MS}; it stays in this node's
   * inflight set meanwhile (so a crash leaves it to the leader's failover). Counted, not logged per
   * fire.
   *
   * @return false when the timer refuses (closing): the trigger is then judged now
   */
  private boolean waitForExecutor(DueTrigger trigger, int attempt, long since) {
    try {
      retryTimer.schedule(
          () -> dispatchExecutor.execute(() -> admit(trigger, attempt, since)),
          NO_EXECUTOR_RECHECK_MS,
          TimeUnit.MILLISECONDS);
      meters.noExecutorWaits.increment();
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /**
   * A failed send is retried in memory after a short back-off (the entry is still in this node's
   * inflight set, so the ack of any copy settles it); past {@link #MAX_SEND_ATTEMPTS} the inflight
   * sweeper takes over. Never blocks the broker callback thread.
   */
  private boolean retryLater(DueTrigger trigger, int attempt) {
    try {
      retryTimer.schedule(
          () -> dispatchExecutor.execute(() -> admit(trigger, attempt, 0)),
          RETRY_BACKOFF_MS * (attempt - 1),
          TimeUnit.MILLISECONDS);
      meters.sendRetries.increment();
      return true;
    } catch (RejectedExecutionException e) {
      return false; // closing, or the dispatch queue is full: the sweeper re-sends
    }
  }

  /**
   * Called on a broker callback thread: records DISPATCHED with a non-blocking script call, grouped
   * with the shard's other acks ({@link DeferredAcks}) unless the linger is zero; no thread waits a
   * round trip per fire. Its outcome is counted on an ack thread.
   */
  private void acknowledge(DueTrigger trigger, int slot) {
    try {
      long now = clock.nowMs();
      CompletionStage<Boolean> recorded =
          deferredAcks == null
              ? store.ackDispatchedAsync(
                  trigger.shard(), trigger.triggerId(), Integer.toString(slot), now)
              : deferredAcks.add(
                  trigger.shard(),
                  new DispatchAck(trigger.triggerId(), Integer.toString(slot), now));
      recorded.whenCompleteAsync(
          (removed, failure) -> acked(trigger, removed, failure), ackExecutor);
    } catch (RuntimeException e) {
      acked(trigger, null, e);
    }
  }

  private void acked(DueTrigger trigger, Boolean removed, Throwable failure) {
    if (failure == null && removed) {
      meters.dispatched.increment(); // the common case logs nothing, so it sets no MDC
      return;
    }
    try (var ids = TriggerMdc.of(trigger)) {
      if (failure != null) {
        meters.ackErrors.increment();
        log.warn(
            "ack of trigger {} not recorded ({}); it stays inflight and is re-sent",
            trigger.triggerId(),
            failure.toString());
      } else {
        meters.ackMissed.increment();
        log.info(
            "trigger {} was acknowledged but is no longer in this node's inflight set",
            trigger.triggerId());
      }
    }
  }

  /** The trigger's ids in the MDC for the log lines of a block; removed when it closes. */
  private record TriggerMdc(MDC.MDCCloseable job, MDC.MDCCloseable trigger)
      implements AutoCloseable {
    static TriggerMdc of(DueTrigger trigger) {
      return new TriggerMdc(
          MDC.putCloseable("jobId", trigger.jobId()),
          MDC.putCloseable("triggerId", trigger.triggerId()));
    }

    @Override
    public void close() {
      job.close();
      trigger.close();
    }
  }
}
