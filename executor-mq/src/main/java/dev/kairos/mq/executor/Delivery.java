package dev.kairos.mq.executor;

import dev.kairos.protocol.message.TriggerMessage;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * One received copy of a trigger: the slot tenure that received it (it is started under that tenure
 * or not at all), where it came from (for the offset) and what to run.
 */
record Delivery(
    SlotTenure tenure,
    MessageQueue queue,
    long offset,
    TriggerMessage trigger,
    JobHandler handler) {

  /** Unique among what one executor holds: a re-delivered copy of a message replaces the old. */
  String key() {
    return queue.getTopic() + '/' + queue.getQueueId() + '/' + offset + '/' + trigger.triggerId();
  }

  /** Marks this delivery's trigger done in its tenure's offsets. */
  void done() {
    tenure.offsets.done(queue, offset);
  }
}
