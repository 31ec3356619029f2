package dev.kairos.node.fire;

import dev.kairos.coordinator.wheel.DueTrigger;
import dev.kairos.coordinator.wheel.NodeWheelStore;
import dev.kairos.core.time.KairosClock;
import dev.kairos.mq.contract.MessageCodec;
import dev.kairos.mq.contract.TopicNames;
import dev.kairos.mq.contract.TriggerMessage;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.rocketmq.common.message.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Sends triggers already moved to this node's inflight set: routes each to a live executor slot,
 * publishes it asynchronously and, once the broker acknowledged it, records DISPATCHED (removing
 * the inflight entry) on the ack executor. What fails stays inflight (DESIGN "Ownership and crash
 * windows": "send fails or times out on a live node"), and the inflight sweeper re-sends it.
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
  private final MessageCodec codec = new MessageCodec();

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
      FireMeters meters) {
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
  }

  void dispatchAll(List<DueTrigger> due) {
    for (DueTrigger trigger : due) {
      dispatchLogged(trigger, 1);
    }
  }

  private void dispatchLogged(DueTrigger trigger, int attempt) {
    MDC.put("jobId", trigger.jobId());
    MDC.put("triggerId", trigger.triggerId());
    try {
      dispatch(trigger, attempt);
    } catch (RuntimeException e) {
      meters.sendFailures.increment();
      log.warn(
          "trigger {} not sent ({}); it stays inflight and the inflight sweeper re-sends it",
          trigger.triggerId(),
          e.toString());
    } finally {
      MDC.remove("jobId");
      MDC.remove("triggerId");
    }
  }

  private void dispatch(DueTrigger trigger, int attempt) {
    OptionalInt slot = router.slotFor(trigger.app(), trigger.handler(), trigger.jobId());
    long now = clock.nowMs();
    if (slot.isEmpty()) {
      String message =
          "no live executor of app " + trigger.app() + " hosts handler " + trigger.handler();
      if (store.recordNoExecutor(
          trigger.shard(), trigger.triggerId(), trigger.jobId(), message, now)) {
        meters.noExecutor.increment();
        log.info("trigger {} ended NO_EXECUTOR: {}", trigger.triggerId(), message);
      }
      return;
    }
    topics.ensure(TopicNames.handlerTopic(trigger.app(), trigger.handler()));
    Message message =
        codec.toMessage(
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
                now));
    int chosen = slot.getAsInt();
    meters.lateness.record(Math.max(0, now - trigger.fireMs()), TimeUnit.MILLISECONDS);
    sender
        .send(message, chosen)
        .whenComplete(
            (ok, failure) -> {
              // Broker callback thread: no MDC of ours here.
              MDC.put("jobId", trigger.jobId());
              MDC.put("triggerId", trigger.triggerId());
              try {
                settle(trigger, chosen, attempt, failure);
              } finally {
                MDC.remove("jobId");
                MDC.remove("triggerId");
              }
            });
  }

  private void settle(DueTrigger trigger, int chosen, int attempt, Throwable failure) {
    if (failure == null) {
      acknowledge(trigger, chosen);
      return;
    }
    meters.sendFailures.increment();
    router.invalidate(trigger.app());
    boolean retry = attempt < MAX_SEND_ATTEMPTS && retryLater(trigger, attempt + 1);
    log.warn(
        "send {} of trigger {} to slot {} failed ({}); {}",
        attempt,
        trigger.triggerId(),
        chosen,
        failure.toString(),
        retry ? "sending again shortly" : "it stays inflight and the inflight sweeper re-sends it");
  }

  /**
   * A failed send is retried in memory after a short back-off (the entry is still in this node's
   * inflight set, so the ack of any copy settles it); past {@link #MAX_SEND_ATTEMPTS} the inflight
   * sweeper takes over. Never blocks the broker callback thread.
   */
  private boolean retryLater(DueTrigger trigger, int attempt) {
    try {
      retryTimer.schedule(
          () -> dispatchExecutor.execute(() -> dispatchLogged(trigger, attempt)),
          RETRY_BACKOFF_MS * (attempt - 1),
          TimeUnit.MILLISECONDS);
      meters.sendRetries.increment();
      return true;
    } catch (RejectedExecutionException e) {
      return false; // closing, or the dispatch queue is full: the sweeper re-sends
    }
  }

  /** Called on a broker callback thread: hands the Redis write to the ack executor. */
  private void acknowledge(DueTrigger trigger, int slot) {
    try {
      ackExecutor.execute(() -> recordAck(trigger, slot));
    } catch (RejectedExecutionException e) {
      meters.ackErrors.increment();
      log.warn(
          "ack of trigger {} refused (ack queue full); it stays inflight and is re-sent",
          trigger.triggerId());
    }
  }

  private void recordAck(DueTrigger trigger, int slot) {
    MDC.put("jobId", trigger.jobId());
    MDC.put("triggerId", trigger.triggerId());
    try {
      if (store.ackDispatched(
          trigger.shard(), trigger.triggerId(), Integer.toString(slot), clock.nowMs())) {
        meters.dispatched.increment();
      } else {
        meters.ackMissed.increment();
        log.info(
            "trigger {} was acknowledged but is no longer in this node's inflight set",
            trigger.triggerId());
      }
    } catch (RuntimeException e) {
      meters.ackErrors.increment();
      log.warn(
          "ack of trigger {} not recorded ({}); it stays inflight and is re-sent",
          trigger.triggerId(),
          e.toString());
    } finally {
      MDC.remove("jobId");
      MDC.remove("triggerId");
    }
  }
}
