package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.protocol.message.TriggerMessage;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class JobRunnersTest {

  private final List<Run> launched = new ArrayList<>();
  private final List<Run> pending = new ArrayList<>();
  private long offset;

  private Delivery delivery(String job) {
    long fire = 1_000 + offset;
    TriggerMessage trigger =
        TriggerMessage.of(
            job + ":" + fire,
            "app",
            "h",
            fire,
            1,
            "",
            0,
            1,
            0,
            BlockStrategy.SERIAL_EXECUTION,
            1,
            fire);
    return new Delivery(null, new MessageQueue("t", "b", 0), offset++, trigger, ctx -> {});
  }

  @Test
  void aRunThatEndsBeforeSubmitReturnsStillFreesItsJob() throws Exception {
    // A worker that overtakes the poll thread: the run's end is reported while submit() is still
    // placing the job's runner in the map. The launch gives that worker up to 100 ms to report
    // before submit() goes on, which is where looking the runner up in the map found nothing.
    List<Thread> workers = new ArrayList<>();
    JobRunners[] self = new JobRunners[1];
    self[0] =
        new JobRunners(
            run -> {
              launched.add(run);
              Thread worker = new Thread(() -> self[0].finished(run), "test-worker");
              workers.add(worker);
              worker.start();
              try {
                worker.join(100);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            d -> {});
    JobRunners runners = self[0];
    for (int i = 0; i < 3; i++) {
      runners.submit(delivery("job"));
      for (Thread worker : workers) {
        worker.join(5_000);
      }
    }
    assertThat(launched).hasSize(3);
    assertThat(runners.busyJobs()).isZero();
    assertThat(runners.waiting()).isZero();
  }

  @Test
  void serialDeliveriesOfOneJobWaitAndOtherJobsDoNot() {
    JobRunners runners = new JobRunners(pending::add, d -> {});
    runners.submit(delivery("a"));
    runners.submit(delivery("a"));
    runners.submit(delivery("b"));
    assertThat(pending).extracting(r -> r.delivery.trigger().jobId()).containsExactly("a", "b");
    assertThat(runners.waiting()).isEqualTo(1);
    runners.finished(pending.get(0));
    assertThat(pending)
        .extracting(r -> r.delivery.trigger().jobId())
        .containsExactly("a", "b", "a");
    runners.finished(pending.get(1));
    runners.finished(pending.get(2));
    assertThat(runners.busyJobs()).isZero();
  }
}
