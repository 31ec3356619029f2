package dev.kairos.mq.executor;

import dev.kairos.core.lifecycle.Lifecycle;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.mq.executor.ExecutorCounters.Outcome;
import dev.kairos.mq.slot.NoFreeSlotException;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.protocol.message.MalformedMessageException;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.ResultStatus;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll thread: polls the current slot tenure's queues, turns each message into deliveries (a
 * message may carry several triggers) and puts them in the {@link DeliveryHold} until their fire
 * time, commits what is done, and after a lost lease ends the tenure and claims a free slot again.
 * Polling pauses while too many deliveries wait ({@link ExecutorSettings#maxInFlight()} due ones,
 * or {@link #maxHeld} held for their fire time).
 *
 * <p>Threads: {@link #run} is the poll thread, the only one touching the tenure's consumer.
 */
final class DeliveryPoller implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(DeliveryPoller.class);

  private final KairosRedis redis;
  private final ExecutorSettings settings;
  private final Map<String, JobHandler> handlers;
  private final AtomicReference<SlotTenure> tenure;
  private final DeliveryHold hold;
  private final int maxHeld;
  private final RunEnds ends;
  private final ExecutorCounters counters;
  private final Lifecycle lifecycle;
  private final LongAdder reclaims;
  private final MessageCodec codec = new MessageCodec();

  DeliveryPoller(
      KairosRedis redis,
      ExecutorSettings settings,
      Map<String, JobHandler> handlers,
      AtomicReference<SlotTenure> tenure,
      DeliveryHold hold,
      int maxHeld,
      RunEnds ends,
      ExecutorCounters counters,
      Lifecycle lifecycle,
      LongAdder reclaims) {
    this.redis = redis;
    this.settings = settings;
    this.handlers = handlers;
    this.tenure = tenure;
    this.hold = hold;
    this.maxHeld = maxHeld;
    this.ends = ends;
    this.counters = counters;
    this.lifecycle = lifecycle;
    this.reclaims = reclaims;
  }

  /** Catches at the boundary so the loop survives outages. */
  @Override
  public void run() {
    while (lifecycle.isStarted()) {
      SlotTenure current = tenure.get();
      try {
        if (current.lease.isLost()) {
          log.error(
              "executor {} lost slot {}: it stops consuming that slot's queues, leaves them to the"
                  + " slot's next owner and claims a free slot again",
              current.lease.instanceId(),
              current.lease.slot());
          counters.leaseLost.increment();
          current.stop();
          if (!reclaim(current)) {
            return;
          }
          continue;
        }
        int held = hold.size();
        if (!current.lease.isValid()
            || current.offsets.pendingCount() - held >= settings.maxInFlight()
            || held >= maxHeld) {
          current.commit(false);
          Thread.sleep(20);
          continue;
        }
        long pollStartedMs = System.currentTimeMillis();
        List<MessageExt> messages = current.poll(settings.pollTimeout().toMillis());
        for (MessageExt message : messages) {
          accept(current, message);
        }
        current.progress.polled(pollStartedMs, messages);
        current.commit(false);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        counters.errors.increment();
        log.warn("executor poll loop failed, will keep running", e);
      }
    }
  }

  private void accept(SlotTenure current, MessageExt message) {
    MessageQueue queue =
        new MessageQueue(message.getTopic(), message.getBrokerName(), message.getQueueId());
    long offset = message.getQueueOffset();
    List<TriggerMessage> triggers;
    try {
      triggers = codec.decodeTriggers(message.getBody());
    } catch (MalformedMessageException e) {
      counters.malformed.increment();
      log.warn(
          "skipping malformed message {} on {}: {}", message.getMsgId(), queue, e.getMessage());
      current.offsets.received(queue, offset, 0);
      return;
    }
    current.offsets.received(queue, offset, triggers.size());
    for (TriggerMessage trigger : triggers) {
      JobHandler handler = handlers.get(trigger.handler());
      if (handler == null) {
        log.warn("trigger {} names handler {} which is not hosted", trigger.triggerId(), trigger);
        current.offsets.done(queue, offset);
        counters.count(trigger.handler(), Outcome.FAILED);
        ends.report(
            trigger,
            current.lease.slot(),
            ResultStatus.FAIL,
            0,
            "handler " + trigger.handler() + " is not hosted");
        continue;
      }
      log.debug(
          "received {} ({}) from {} at offset {}",
          trigger.triggerId(),
          trigger.blockStrategy(),
          queue,
          offset);
      if (!hold.hold(new Delivery(current, queue, offset, trigger, handler))) {
        // The poll pauses before the hold is full; left uncommitted, the trigger comes back to the
        // slot's next owner or by the scheduler's re-dispatch.
        counters.errors.increment();
        log.warn("trigger {} not held: the hold is full", trigger.triggerId());
      }
    }
  }

  /**
   * After a lost lease: claims the lowest free slot again and resumes consuming its queues, trying
   * every renewal interval until it succeeds or the executor closes.
   *
   * @return false when the executor closed first
   */
  private boolean reclaim(SlotTenure lost) throws InterruptedException {
    long pauseMs = settings.lease().renewInterval().toMillis();
    while (lifecycle.isStarted()) {
      SlotLease next = new SlotLease(redis, settings.lease());
      try {
        next.start();
        tenure.set(SlotTenure.open(next, settings, Duration.ZERO));
        lost.lease.close();
        reclaims.increment();
        log.info(
            "executor {} of app {} re-claimed slot {} (lost slot {}) and consumes {}",
            next.instanceId(),
            settings.lease().app(),
            next.slot(),
            lost.lease.slot(),
            tenure.get().assigned());
        return true;
      } catch (NoFreeSlotException e) {
        log.warn(
            "executor {}: {}; trying again in {} ms", next.instanceId(), e.getMessage(), pauseMs);
      } catch (MQClientException | RuntimeException e) {
        next.close();
        counters.errors.increment();
        log.warn(
            "executor {} could not re-claim a slot ({}); trying again in {} ms",
            next.instanceId(),
            e.toString(),
            pauseMs);
      }
      Thread.sleep(pauseMs);
    }
    return false;
  }
}
