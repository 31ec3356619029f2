package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.mq.slot.SlotInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SlotRouterTest {

  private final AtomicLong nanos = new AtomicLong();
  private final AtomicInteger reads = new AtomicInteger();
  private List<SlotInfo> live = new ArrayList<>();

  private final SlotRouter router =
      new SlotRouter(
          app -> {
            reads.incrementAndGet();
            return live;
          },
          Duration.ofSeconds(1),
          nanos::get);

  @Test
  void noLiveSlotHostingTheHandlerMeansNoExecutor() {
    live = List.of(slot(0, "other"));
    assertThat(router.slotFor("app", "tick", "job-1")).isEmpty();
  }

  @Test
  void aJobKeepsItsSlotAndJobsSpreadOverTheLiveSlots() {
    live = List.of(slot(0, "tick"), slot(3, "tick"), slot(5, "other"));
    Map<Integer, Integer> perSlot = new java.util.HashMap<>();
    for (int i = 0; i < 1_000; i++) {
      OptionalInt first = router.slotFor("app", "tick", "job-" + i);
      assertThat(router.slotFor("app", "tick", "job-" + i)).isEqualTo(first);
      perSlot.merge(first.getAsInt(), 1, Integer::sum);
    }
    assertThat(perSlot.keySet()).containsExactlyInAnyOrder(0, 3);
    assertThat(perSlot.values()).allSatisfy(n -> assertThat(n).isBetween(400, 600));
  }

  @Test
  void slotsAreReadOncePerTtlPerAppAndAgainAfterInvalidate() {
    live = List.of(slot(0, "tick"));
    for (int i = 0; i < 100; i++) {
      router.slotFor("app", "tick", "job-" + i);
    }
    assertThat(reads).hasValue(1);
    nanos.addAndGet(Duration.ofMillis(999).toNanos());
    router.slotFor("app", "tick", "job");
    assertThat(reads).hasValue(1);
    nanos.addAndGet(Duration.ofMillis(1).toNanos());
    router.slotFor("app", "tick", "job");
    assertThat(reads).hasValue(2);
    router.invalidate("app");
    router.slotFor("app", "tick", "job");
    assertThat(reads).hasValue(3);
  }

  private static SlotInfo slot(int index, String handler) {
    return new SlotInfo("exec-" + index, "host", List.of(handler), index, 0, 1, false);
  }
}
