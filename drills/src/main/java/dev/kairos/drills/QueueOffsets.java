package dev.kairos.drills;

import dev.kairos.protocol.message.SlotQueueSelector;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.remoting.protocol.admin.OffsetWrapper;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * Reads, through the broker's admin API, how far a consumer group has committed on the queue of one
 * executor slot and where that queue ends: the backlog a killed executor leaves to the slot's next
 * owner (docs/design.md "Executors and RocketMQ": queue i belongs to the executor in slot i).
 */
public final class QueueOffsets implements AutoCloseable {

  /** One queue: {@code end} is the broker's max offset, {@code committed} the group's offset. */
  public record Position(long end, long committed) {

    /** Messages after the committed offset: neither started nor reported by the slot's owner. */
    public long backlog() {
      return Math.max(0, end - committed);
    }
  }

  private final DefaultMQAdminExt admin;
  private final String brokerAddress;
  private final long timeoutMs;

  /**
   * @param brokerAddress asked directly (one broker group: see {@link SlotQueueSelector})
   * @param timeout of each admin call: generous, the broker shares a loaded machine
   */
  public QueueOffsets(String nameServerAddress, String brokerAddress, Duration timeout) {
    this.brokerAddress = brokerAddress;
    this.timeoutMs = timeout.toMillis();
    admin = new DefaultMQAdminExt(timeoutMs);
    admin.setNamesrvAddr(nameServerAddress);
    admin.setInstanceName("drill-offsets-" + UUID.randomUUID());
    try {
      admin.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start a RocketMQ admin client: " + e, e);
    }
  }

  /** The position of {@code group} on the queue of {@code slot} of {@code topic}. */
  public Position of(String group, String topic, int slot) {
    ConsumeStats stats;
    try {
      stats = admin.examineConsumeStats(brokerAddress, group, topic, timeoutMs);
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot read the offsets of group " + group + " on " + topic + ": " + e, e);
    }
    Map<MessageQueue, OffsetWrapper> table = stats.getOffsetTable();
    MessageQueue queue = SlotQueueSelector.queueOf(table.keySet(), slot);
    OffsetWrapper offsets = table.get(queue);
    return new Position(offsets.getBrokerOffset(), offsets.getConsumerOffset());
  }

  @Override
  public void close() {
    admin.shutdown();
  }
}
