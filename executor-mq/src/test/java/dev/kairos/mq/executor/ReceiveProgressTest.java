package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class ReceiveProgressTest {

  private final MessageQueue countQueue = new MessageQueue("kairos_app_count", "broker-a", 1);
  private final MessageQueue slowQueue = new MessageQueue("kairos_app_slow", "broker-a", 1);
  private final List<String> reports = new ArrayList<>();
  private final ReceiveProgress progress =
      new ReceiveProgress(
          Map.of(countQueue, "count", slowQueue, "slow"), (h, ms) -> reports.add(h + "@" + ms));

  private static MessageExt message(MessageQueue queue, long bornMs) {
    MessageExt m = new MessageExt();
    m.setTopic(queue.getTopic());
    m.setBrokerName(queue.getBrokerName());
    m.setQueueId(queue.getQueueId());
    m.setBornTimestamp(bornMs);
    return m;
  }

  @Test
  void twoEmptyPollsInARowMeanEveryAssignedQueueWasDrainedWhenTheFirstStarted() {
    progress.polled(5_000, List.of());
    assertThat(reports).as("one empty poll may only mean the pull is late").isEmpty();

    progress.polled(5_200, List.of());
    assertThat(reports).containsExactlyInAnyOrder("count@5000", "slow@5000");

    progress.polled(5_400, List.of());
    assertThat(reports)
        .containsExactlyInAnyOrder("count@5000", "slow@5000", "count@5200", "slow@5200");
  }

  @Test
  void anEmptyPollFollowedByMessagesProvesNothingAboutDraining() {
    progress.polled(5_000, List.of());
    progress.polled(5_200, List.of(message(countQueue, 4_900)));
    progress.polled(5_400, List.of());

    // The messages show the first empty poll was a late pull, not a drained queue.
    assertThat(reports).containsExactly("count@4900");

    progress.polled(5_600, List.of());
    assertThat(reports).containsExactlyInAnyOrder("count@4900", "count@5400", "slow@5400");
  }

  @Test
  void polledMessagesMoveOnlyTheirOwnQueueToTheirBornTime() {
    progress.polled(9_000, List.of(message(countQueue, 1_000), message(countQueue, 1_200)));

    // Not the poll's start: later messages of this queue may still wait; the slow queue is unknown.
    assertThat(reports).containsExactly("count@1000", "count@1200");
  }

  @Test
  void aMessageFromAQueueOfAnotherTenureIsIgnored() {
    MessageQueue otherSlot = new MessageQueue("kairos_app_count", "broker-a", 2);

    progress.polled(9_000, List.of(message(otherSlot, 1_000)));

    assertThat(reports).isEmpty();
  }
}
