package dev.kairos.node.fire;

import dev.kairos.core.batch.Coalescer;
import dev.kairos.protocol.message.SlotQueueSelector;
import java.time.Duration;
import java.util.ArrayList;
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
import org.apache.rocketmq.common.message.MessageBatch;
import org.apache.rocketmq.common.message.MessageClientIDSetter;

/**
 * Sends with RocketMQ's asynchronous send and {@link SlotQueueSelector} (slot i = queue i). Sends
 * to one queue that arrive while earlier sends to it are in flight go together as one broker batch
 * ({@link Coalescer}): under load one request, one commit-log append and one answer carry many
 * triggers; at low load a send goes at once, alone. Only a {@link SendStatus#SEND_OK} counts as
 * acknowledged: the other statuses mean the broker has the messages but not yet on disk or on its
 * replica, and the triggers stay inflight for a re-send. A batch is acknowledged or failed whole.
 */
public final class RocketMqTriggerSender implements TriggerSender {

  private static final SlotQueueSelector SELECTOR = new SlotQueueSelector();

  /** Most messages in one batch: far below the broker's 4 MB request limit for trigger sizes. */
  static final int MAX_BATCH = 128;

  /** Sends of one queue in flight at once. */
  static final int SENDS_PER_QUEUE = 2;

  private final DefaultMQProducer producer;
  private final long timeoutMs;
  private final LongAdder requests = new LongAdder();
  private final Coalescer<Lane, Message, Void> batches =
      new Coalescer<>(this::sendGroup, MAX_BATCH, SENDS_PER_QUEUE);

  public RocketMqTriggerSender(DefaultMQProducer producer, Duration timeout) {
    this.producer = producer;
    this.timeoutMs = timeout.toMillis();
  }

  @Override
  public CompletionStage<Void> send(Message message, int slot) {
    return batches.submit(new Lane(message.getTopic(), slot), message);
  }

  /** Broker requests made so far (one per single message or batch). */
  long requests() {
    return requests.sum();
  }

  /** The queue a group goes to. */
  private record Lane(String topic, int slot) {}

  private CompletionStage<List<Void>> sendGroup(Lane lane, List<Message> group) {
    CompletableFuture<List<Void>> acked = new CompletableFuture<>();
    requests.increment();
    try {
      producer.send(
          group.size() == 1 ? group.get(0) : batchOf(lane.topic(), group),
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

  /**
   * One broker request holding every message of the group, each keeping its own id, keys and
   * properties (what {@code DefaultMQProducer.send(Collection)} builds, sent here through the slot
   * selector so the batch lands on the slot's queue like a single send would).
   */
  private static MessageBatch batchOf(String topic, List<Message> group) {
    List<Message> messages = new ArrayList<>(group);
    for (Message message : messages) {
      MessageClientIDSetter.setUniqID(message);
    }
    MessageBatch batch = MessageBatch.generateFromList(messages);
    MessageClientIDSetter.setUniqID(batch);
    batch.setBody(batch.encode());
    batch.setTopic(topic);
    return batch;
  }
}
