package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.protocol.message.TriggerMessage;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class JobRunnerTest {

  private final List<Run> launched = new ArrayList<>();
  private final List<Delivery> discarded = new ArrayList<>();
  private final JobRunner runner = new JobRunner(launched::add, discarded::add);
  private long offset;

  private Delivery delivery(BlockStrategy block) {
    long fire = 1_000 + offset;
    TriggerMessage trigger =
        TriggerMessage.of("job:" + fire, "app", "h", fire, 1, "", 0, 1, 0, block, 1, fire);
    return new Delivery(null, new MessageQueue("t", "b", 0), offset++, trigger, ctx -> {});
  }

  @Test
  void serialRunsWaitForTheRunningOneInOrder() {
    Delivery first = delivery(BlockStrategy.SERIAL_EXECUTION);
    Delivery second = delivery(BlockStrategy.SERIAL_EXECUTION);
    Delivery third = delivery(BlockStrategy.SERIAL_EXECUTION);
    runner.submit(first);
    runner.submit(second);
    runner.submit(third);
    assertThat(launched).extracting(r -> r.delivery).containsExactly(first);
    assertThat(runner.waitingCount()).isEqualTo(2);
    runner.finished(launched.get(0));
    runner.finished(launched.get(1));
    assertThat(launched).extracting(r -> r.delivery).containsExactly(first, second, third);
    runner.finished(launched.get(2));
    assertThat(runner.isIdle()).isTrue();
  }

  @Test
  void discardLaterDropsNewcomersWhileARunIsGoing() {
    Delivery first = delivery(BlockStrategy.DISCARD_LATER);
    Delivery second = delivery(BlockStrategy.DISCARD_LATER);
    runner.submit(first);
    runner.submit(second);
    assertThat(launched).hasSize(1);
    assertThat(discarded).containsExactly(second);
    runner.finished(launched.get(0));
    assertThat(runner.isIdle()).isTrue();
  }

  @Test
  void coverEarlyLaunchesTheNewcomerAndMarksWhatItCovers() {
    Delivery first = delivery(BlockStrategy.COVER_EARLY);
    Delivery second = delivery(BlockStrategy.COVER_EARLY);
    runner.submit(first);
    runner.submit(second);
    assertThat(launched).hasSize(2);
    assertThat(launched.get(1).covers).isSameAs(launched.get(0));
    // The covered run ending does not free the runner: its successor is running.
    runner.finished(launched.get(0));
    assertThat(runner.isIdle()).isFalse();
    runner.finished(launched.get(1));
    assertThat(runner.isIdle()).isTrue();
  }

  @Test
  void anInterruptAfterTheRunEndedHitsNothing() {
    Run run = new Run(delivery(BlockStrategy.SERIAL_EXECUTION), null, runner);
    run.begin();
    run.end();
    assertThat(run.interrupt(true)).isFalse();
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    assertThat(run.timedOut()).isFalse();
  }
}
