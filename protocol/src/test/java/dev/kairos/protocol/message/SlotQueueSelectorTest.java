package dev.kairos.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class SlotQueueSelectorTest {

  private final SlotQueueSelector selector = new SlotQueueSelector();
  private final Message message = new Message("t", new byte[0]);

  private static List<MessageQueue> queues(String... brokers) {
    List<MessageQueue> queues = new ArrayList<>();
    for (String broker : brokers) {
      for (int id = 0; id < 4; id++) {
        queues.add(new MessageQueue("t", broker, id));
      }
    }
    Collections.shuffle(queues, new Random(7));
    return queues;
  }

  @Test
  void slotPicksTheSameQueueWhateverTheRouteOrder() {
    List<MessageQueue> route = queues("broker-b", "broker-a");
    assertThat(selector.select(route, message, 0)).isEqualTo(new MessageQueue("t", "broker-a", 0));
    assertThat(selector.select(route, message, 3)).isEqualTo(new MessageQueue("t", "broker-a", 3));
    assertThat(selector.select(route, message, 4)).isEqualTo(new MessageQueue("t", "broker-b", 0));
    Collections.reverse(route);
    assertThat(selector.select(route, message, 5)).isEqualTo(new MessageQueue("t", "broker-b", 1));
  }

  @Test
  void everySlotGetsItsOwnQueue() {
    List<MessageQueue> route = queues("broker-a");
    assertThat(List.of(0, 1, 2, 3).stream().map(s -> selector.select(route, message, s)).toList())
        .doesNotHaveDuplicates()
        .extracting(MessageQueue::getQueueId)
        .containsExactly(0, 1, 2, 3);
  }

  @Test
  void producerAndConsumerAgreeOnTheQueueOfASlot() {
    List<MessageQueue> route = queues("broker-a", "broker-b");
    for (int slot = 0; slot < route.size(); slot++) {
      assertThat(SlotQueueSelector.queueOf(new java.util.HashSet<>(route), slot))
          .isEqualTo(selector.select(route, message, slot));
    }
  }

  @Test
  void slotBeyondTheQueuesIsAClearError() {
    List<MessageQueue> route = queues("broker-a");
    assertThatThrownBy(() -> selector.select(route, message, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slot 4")
        .hasMessageContaining("4 queues");
    assertThatThrownBy(() -> selector.select(route, message, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void argumentMustBeTheSlotIndex() {
    assertThatThrownBy(() -> selector.select(queues("broker-a"), message, "1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Integer slot");
  }
}
