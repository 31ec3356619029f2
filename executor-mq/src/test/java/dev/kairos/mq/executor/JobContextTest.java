package dev.kairos.mq.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.TriggerId;
import dev.kairos.protocol.message.TriggerMessage;
import org.junit.jupiter.api.Test;

class JobContextTest {

  private static TriggerMessage message(TriggerId id, long dueMs) {
    return TriggerMessage.of(
        id.value(), "app", "h", dueMs, 1, "", 0, 1, 0, BlockStrategy.SERIAL_EXECUTION, 1, dueMs);
  }

  @Test
  void aBackfillRunSeesItsHistoricalFireTime() {
    long historical = 1_600_000_000_000L;
    long due = 1_700_000_000_000L;

    assertThat(JobContext.of(message(TriggerId.backfill("job", historical), due)).scheduledFireMs())
        .isEqualTo(historical);
    assertThat(
            JobContext.of(message(TriggerId.backfill("job", historical).retry(1), due))
                .scheduledFireMs())
        .isEqualTo(historical);
  }

  @Test
  void otherRunsSeeTheMessagesFireTime() {
    long due = 1_700_000_000_000L;

    assertThat(JobContext.of(message(TriggerId.scheduled("job", due), due)).scheduledFireMs())
        .isEqualTo(due);
    assertThat(JobContext.of(message(TriggerId.manual("job", 5, "n"), due)).scheduledFireMs())
        .isEqualTo(due);
  }
}
