package dev.kairos.node.fire;

import dev.kairos.core.time.KairosClock;
import dev.kairos.node.route.Route;
import dev.kairos.protocol.message.TriggerMessage;
import dev.kairos.protocol.wheel.BroadcastShards;
import dev.kairos.protocol.wheel.BroadcastShards.FanOut;
import dev.kairos.protocol.wheel.DueTrigger;
import dev.kairos.protocol.wheel.NodeWheelStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Sends a SHARDING_BROADCAST trigger: one message per shard, shard i to the i-th slot of the
 * fan-out recorded in Redis at the first dispatch ({@link BroadcastShards#fanOut}), each with its
 * own trigger id {@code <parentId>#<i>/<n>} and shard index/total. Only when the broker has
 * acknowledged every shard still open are the shards recorded DISPATCHED (and open, for the
 * lost-trigger monitor) and the parent's inflight entry acknowledged (the parent is not open: it
 * never runs itself); if any send fails the parent stays inflight and the inflight sweeper re-sends
 * it later with the same fan-out (shards that already started are then skipped, or reported
 * DUPLICATE by the executor if they start in between).
 *
 * <p>Costs one extra script call per broadcast fire on the dispatch thread (the fan-out must be
 * fixed in Redis before any shard is sent) and one on the ack thread.
 */
final class BroadcastDispatcher {

  private static final Logger log = LoggerFactory.getLogger(BroadcastDispatcher.class);

  private final NodeWheelStore store;
  private final SlotRouter router;
  private final TriggerSender sender;
  private final KairosClock clock;
  private final LongSupplier term;
  private final Executor ackExecutor;
  private final FireMeters meters;

  BroadcastDispatcher(
      NodeWheelStore store,
      SlotRouter router,
      TriggerSender sender,
      KairosClock clock,
      LongSupplier term,
      Executor ackExecutor,
      FireMeters meters) {
    this.store = store;
    this.router = router;
    this.sender = sender;
    this.clock = clock;
    this.term = term;
    this.ackExecutor = ackExecutor;
    this.meters = meters;
  }

  /**
   * Runs on a dispatch thread with the trigger's MDC set; {@code route} is non-empty. {@code
   * onSent} runs once every shard's send has completed (acknowledged or failed), on a broker
   * callback thread; it gives back the trigger's place in the send window.
   */
  void dispatch(DueTrigger trigger, Route route, Runnable onSent) {
    long now = clock.nowMs();
    FanOut fanOut =
        store.broadcastShards().fanOut(trigger.shard(), trigger.triggerId(), route.slots(), now);
    Map<String, Integer> sending = new LinkedHashMap<>();
    List<CompletableFuture<Void>> acks = new ArrayList<>();
    meters.lateness.record(Math.max(0, now - trigger.fireMs()), TimeUnit.MILLISECONDS);
    for (int i = 0; i < fanOut.total(); i++) {
      if (!fanOut.open(i)) {
        continue;
      }
      String shardId = BroadcastShards.shardId(trigger.triggerId(), i, fanOut.total());
      int slot = fanOut.slots().get(i);
      TriggerMessage message =
          TriggerMessage.of(
              shardId,
              trigger.app(),
              trigger.handler(),
              trigger.fireMs(),
              trigger.attempt(),
              trigger.params(),
              i,
              fanOut.total(),
              trigger.timeoutMs(),
              trigger.block(),
              term.getAsLong(),
              now);
      sending.put(shardId, slot);
      acks.add(sender.send(message, slot).toCompletableFuture());
    }
    log.debug(
        "broadcast {} to {} of {} shards (slots {})",
        trigger.triggerId(),
        sending.size(),
        fanOut.total(),
        fanOut.slots());
    CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
        .whenComplete(
            (ok, failure) -> {
              onSent.run();
              if (failure != null) {
                meters.sendFailures.increment();
                router.invalidate(trigger.app());
                log.warn(
                    "broadcast {} not fully sent ({}); it stays inflight and the inflight sweeper"
                        + " re-sends its open shards",
                    trigger.triggerId(),
                    failure.toString());
                return;
              }
              try {
                ackExecutor.execute(() -> recordAck(trigger, fanOut.slots(), sending));
              } catch (RejectedExecutionException e) {
                meters.ackErrors.increment();
              }
            });
  }

  private void recordAck(DueTrigger trigger, List<Integer> slots, Map<String, Integer> sent) {
    MDC.put("jobId", trigger.jobId());
    MDC.put("triggerId", trigger.triggerId());
    try {
      if (store
          .broadcastShards()
          .acknowledged(trigger.shard(), trigger.triggerId(), slots, sent, clock.nowMs())) {
        meters.dispatched.increment();
      } else {
        meters.ackMissed.increment();
      }
    } catch (RuntimeException e) {
      meters.ackErrors.increment();
      log.warn(
          "ack of broadcast {} not recorded ({}); it stays inflight and is re-sent",
          trigger.triggerId(),
          e.toString());
    } finally {
      MDC.remove("jobId");
      MDC.remove("triggerId");
    }
  }
}
