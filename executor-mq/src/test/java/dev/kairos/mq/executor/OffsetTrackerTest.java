package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {

  private final OffsetTracker tracker = new OffsetTracker();
  private final MessageQueue q0 = new MessageQueue("t", "b", 0);
  private final MessageQueue q1 = new MessageQueue("u", "b", 0);

  @Test
  void commitStopsAtTheOldestDeliveryNotYetStartedOrReported() {
    for (long offset = 10; offset < 15; offset++) {
      tracker.received(q0, offset, 1);
    }
    tracker.done(q0, 10);
    tracker.done(q0, 12); // 11 still waits (e.g. behind a SERIAL run)
    tracker.done(q0, 13);
    assertThat(tracker.committable()).containsEntry(q0, 11L);
    tracker.done(q0, 11);
    assertThat(tracker.committable()).containsEntry(q0, 14L);
    tracker.done(q0, 14);
    assertThat(tracker.committable()).containsEntry(q0, 15L);
    assertThat(tracker.pendingCount()).isZero();
  }

  @Test
  void queuesAreTrackedIndependently() {
    tracker.received(q0, 0, 1);
    tracker.received(q1, 7, 1);
    tracker.done(q1, 7);
    assertThat(tracker.committable()).containsEntry(q0, 0L).containsEntry(q1, 8L);
    assertThat(tracker.pendingCount()).isEqualTo(1);
  }

  @Test
  void aMessageCarryingSeveralTriggersIsDoneWhenEveryOneOfThemIs() {
    tracker.received(q0, 3, 3);
    tracker.received(q0, 4, 1);
    tracker.done(q0, 4);
    tracker.done(q0, 3);
    tracker.done(q0, 3);
    assertThat(tracker.committable()).containsEntry(q0, 3L);
    assertThat(tracker.pendingCount()).isEqualTo(1);
    tracker.done(q0, 3);
    assertThat(tracker.committable()).containsEntry(q0, 5L);
    assertThat(tracker.pendingCount()).isZero();
  }

  @Test
  void aMalformedMessageCarriesNothingAndHoldsNothingBack() {
    tracker.received(q0, 8, 0);
    assertThat(tracker.committable()).containsEntry(q0, 9L);
    assertThat(tracker.pendingCount()).isZero();
  }

  @Test
  void nothingIsCommittedForAQueueNeverPolled() {
    assertThat(tracker.committable()).isEmpty();
  }
}
