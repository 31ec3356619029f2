package dev.kairos.mq.executor;

import dev.kairos.mq.slot.SlotLease;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tenure of a slot: its lease and the consumer of that slot's queue of every hosted handler
 * topic, with what was received from them and not yet started or reported. A lost lease ends the
 * tenure; a re-claimed slot is a new tenure with a new consumer, reading from the committed
 * offsets. A delivery belongs to the tenure that received it and is only ever started under it.
 *
 * <p>Thread-safety: the consumer and {@link #progress} are the poll thread's; {@link #offsets} is
 * thread-safe; the rest is immutable.
 */
final class SlotTenure {

  private static final Logger log = LoggerFactory.getLogger(SlotTenure.class);

  /** How often the open asks the NameServer again for a route it did not serve. */
  private static final long ROUTE_POLL_MS = 500;

  final SlotLease lease;
  final OffsetTracker offsets = new OffsetTracker();
  final ReceiveProgress progress;
  private final DefaultLitePullConsumer consumer;
  private final Set<MessageQueue> assigned;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private SlotTenure(
      SlotLease lease, DefaultLitePullConsumer consumer, Map<MessageQueue, String> handlerOf) {
    this.lease = lease;
    this.consumer = consumer;
    this.assigned = Set.copyOf(handlerOf.keySet());
    this.progress = new ReceiveProgress(handlerOf, lease::receivedThrough);
  }

  /**
   * Starts a consumer on the queues of {@code lease}'s slot.
   *
   * @param routeWait how long to wait for a handler topic's route the NameServer does not serve
   */
  static SlotTenure open(SlotLease lease, ExecutorSettings settings, Duration routeWait)
      throws MQClientException, InterruptedException {
    DefaultLitePullConsumer consumer =
        new DefaultLitePullConsumer(
            settings.consumerGroup(), settings.rocketMqCredentials().rpcHook());
    consumer.setNamesrvAddr(settings.nameServerAddress());
    consumer.setInstanceName(settings.lease().instanceId());
    consumer.setAutoCommit(false);
    // A new app consumes what was sent before its first instance came up.
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setPullBatchSize(32);
    // One queue per handler is assigned; the client's default of 20 pull threads would leave most
    // idle, each one more thread for every safepoint and GC to stop.
    consumer.setPullThreadNums(Math.max(2, settings.lease().handlers().size()));
    consumer.setPersistConsumerOffsetInterval(
        (int) KairosExecutor.OFFSET_PERSIST_INTERVAL.toMillis());
    consumer.start();
    try {
      Map<MessageQueue, String> mine = new HashMap<>();
      for (String handler : settings.lease().handlers()) {
        String topic = TopicNames.handlerTopic(settings.lease().app(), handler);
        mine.put(
            SlotQueueSelector.queueOf(queuesOf(consumer, topic, routeWait), lease.slot()), handler);
      }
      consumer.assign(new ArrayList<>(mine.keySet()));
      return new SlotTenure(lease, consumer, mine);
    } catch (MQClientException | InterruptedException | RuntimeException e) {
      consumer.shutdown();
      throw e;
    }
  }

  /**
   * The topic's queues as the NameServer routes them, asked again until {@code wait} has passed: a
   * restarted NameServer serves no route until the broker re-registers, at its own period.
   */
  private static Collection<MessageQueue> queuesOf(
      DefaultLitePullConsumer consumer, String topic, Duration wait)
      throws MQClientException, InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    boolean logged = false;
    while (true) {
      try {
        return consumer.fetchMessageQueues(topic);
      } catch (MQClientException e) {
        if (System.nanoTime() - deadline >= 0) {
          throw e;
        }
        if (!logged) {
          log.warn(
              "the NameServer serves no route of topic {} ({}); waiting up to {} for the broker to"
                  + " register",
              topic,
              e.getErrorMessage(),
              wait);
          logged = true;
        }
      }
      Thread.sleep(ROUTE_POLL_MS);
    }
  }

  Set<MessageQueue> assigned() {
    return assigned;
  }

  /** Whether the tenure may start what it received: its lease is trusted and it still consumes. */
  boolean isTrusted() {
    return lease.isValid() && !stopped.get();
  }

  /** Whether the tenure is over: its lease lost or its consumer stopped. */
  boolean isOver() {
    return lease.isLost() || stopped.get();
  }

  boolean isStopped() {
    return stopped.get();
  }

  /** Poll thread only. */
  java.util.List<org.apache.rocketmq.common.message.MessageExt> poll(long timeoutMs) {
    return consumer.poll(timeoutMs);
  }

  /**
   * Moves the consumer's offsets to what is done; {@code persist} also sends them to the broker at
   * once, otherwise the client does every {@link KairosExecutor#OFFSET_PERSIST_INTERVAL}. Poll
   * thread only (and {@link #stop}).
   */
  void commit(boolean persist) {
    Map<MessageQueue, Long> commit = offsets.committable();
    if (!commit.isEmpty()) {
      consumer.commitSync(commit, persist);
    }
  }

  /**
   * Commits what is done and shuts the consumer down, once. Shutting down (rather than just not
   * polling) matters after a lost lease: the client would otherwise keep persisting this tenure's
   * stale offsets for a queue that now belongs to another instance.
   */
  void stop() {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    try {
      commit(true);
    } catch (RuntimeException e) {
      log.warn("final offset commit failed; the next owner may see some copies again", e);
    }
    consumer.shutdown();
  }
}
