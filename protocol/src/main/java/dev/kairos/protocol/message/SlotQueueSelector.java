package dev.kairos.protocol.message;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Maps an executor slot to its queue of a handler topic: slot i is the i-th queue when the topic's
 * queues are sorted by broker name, then queue id. Producers pass the slot as the {@code arg} of
 * {@code send(message, selector, slot)}; executors call {@link #queueOf} with the queues of {@code
 * fetchMessageQueues(topic)} to find the one they consume, so both sides agree by construction.
 *
 * <p>With several broker groups the slot space is the sorted union of their queues, and a group
 * that drops out of the route shifts the mapping of the slots after it. Kairos therefore expects
 * handler topics on a cluster of one broker group (a master with its replicas); more groups work
 * but a group outage re-maps slots until it returns (documented in docs/executors.md).
 */
public final class SlotQueueSelector implements MessageQueueSelector {

  private static final Comparator<MessageQueue> ORDER =
      Comparator.comparing(MessageQueue::getBrokerName).thenComparingInt(MessageQueue::getQueueId);

  @Override
  public MessageQueue select(List<MessageQueue> queues, Message message, Object arg) {
    if (!(arg instanceof Integer slot)) {
      throw new IllegalArgumentException(
          "the selector argument must be the Integer slot index but was " + arg);
    }
    return queueOf(queues, slot);
  }

  /** The queue of {@code slot} among {@code queues}; throws when the topic has too few queues. */
  public static MessageQueue queueOf(Collection<MessageQueue> queues, int slot) {
    List<MessageQueue> sorted = sorted(queues);
    if (slot < 0 || slot >= sorted.size()) {
      String topic = sorted.isEmpty() ? "?" : sorted.get(0).getTopic();
      throw new IllegalArgumentException(
          "slot " + slot + " has no queue: topic " + topic + " has " + sorted.size() + " queues");
    }
    return sorted.get(slot);
  }

  /** The queues in slot order. */
  public static List<MessageQueue> sorted(Collection<MessageQueue> queues) {
    List<MessageQueue> sorted = new ArrayList<>(queues);
    sorted.sort(ORDER);
    return sorted;
  }
}
