package dev.kairos.node.fire;

import dev.kairos.core.batch.Coalescer;
import dev.kairos.protocol.message.MessageCodec;
import dev.kairos.protocol.message.SlotQueueSelector;
import dev.kairos.protocol.message.TopicNames;
import dev.kairos.protocol.message.TriggerMessage;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * Sends with RocketMQ's asynchronous send and {@link SlotQueueSelector} (slot i = queue i). The
 * triggers of one queue that arrive while earlier sends to it are in flight go together as ONE
 * broker message ({@link Coalescer}, {@link MessageCodec#encodeBatch}): under load one request, one
 * commit-log entry, one consume-queue entry, one pull and one decode carry many triggers; at low
 * load a trigger goes at once, alone (a single trigger object, keyed by its trigger id). Only a
 * {@link SendStatus#SEND_OK} counts as acknowledged: the other statuses mean the broker has the
 * message but not yet on disk or on its replica, and the triggers stay inflight for a re-send. A
 * message is acknowledged or failed whole.
 */
public final class RocketMqTriggerSender implements TriggerSender {

  private static final SlotQueueSelector SELECTOR = new SlotQueueSelector();

  /**
   * Most triggers in one message: a few hundred bytes each, far below the broker's 4 MB limit, and
   * the most one executor poll hands on at once.
   */
  static final int MAX_BATCH = 256;

  /** Sends of one queue in flight at once. */
  static final int SENDS_PER_QUEUE = 2;

  private final DefaultMQProducer producer;
  private final long timeoutMs;
  private final MessageCodec codec = new MessageCodec();
  private final LongAdder requests = new LongAdder();
  private final Coalescer<Lane, TriggerMessage, Void> batches =
      new Coalescer<>(this::sendGroup, MAX_BATCH, SENDS_PER_QUEUE);

  public RocketMqTriggerSender(DefaultMQProducer producer, Duration timeout) {
    this.producer = producer;
    this.timeoutMs = timeout.toMillis();
  }

  @Override
  public CompletionStage<Void> send(TriggerMessage trigger, int slot) {
    return batches.submit(
        new Lane(TopicNames.handlerTopic(trigger.app(), trigger.handler()), slot), trigger);
  }

  /** Broker requests made so far (one per message). */
  long requests() {
    return requests.sum();
  }

  /** The queue a group goes to. */
  private record Lane(String topic, int slot) {}

  private CompletionStage<List<Void>> sendGroup(Lane lane, List<TriggerMessage> group) {
    CompletableFuture<List<Void>> acked = new CompletableFuture<>();
    requests.increment();
    try {
      Message message =
          group.size() == 1
              ? codec.toMessage(group.get(0))
              : new Message(lane.topic(), codec.encodeBatch(group));
      producer.send(
          message,
          SELECTOR,
          lane.slot(),
          new SendCallback() {
            @Override
            public void onSuccess(SendResult result) {
              if (result.getSendStatus() == SendStatus.SEND_OK) {
                acked.complete(Collections.nCopies(group.size(), null));
              } else {
                acked.completeExceptionally(
                    new IllegalStateException("broker answered " + result.getSendStatus()));
              }
            }

            @Override
            public void onException(Throwable e) {
              acked.completeExceptionally(e);
            }
          },
          timeoutMs);
    } catch (Exception e) {
      acked.completeExceptionally(e);
    }
    return acked;
  }
}
