package dev.kairos.node.fire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.mq.slot.LiveSlots;
import dev.kairos.node.route.Route;
import dev.kairos.node.route.SlotChoosers;
import dev.kairos.protocol.slot.SlotInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
            return new LiveSlots(0, live);
          },
          Duration.ofSeconds(1),
          nanos::get,
          new SlotChoosers(n -> 0, nanos::get));

  @Test
  void noLiveSlotHostingTheHandlerMeansNoExecutor() {
    live = List.of(slot(0, "other"));
    for (RoutingStrategy strategy : RoutingStrategy.values()) {
      assertThat(router.route("app", "tick", "job-1", strategy).isEmpty()).isTrue();
    }
  }

  @Test
  void onlySlotsHostingTheHandlerAreChosen() {
    live = List.of(slot(0, "other"), slot(3, "tick"), slot(5, "tick"), slot(6, "other"));
    assertThat(router.route("app", "tick", "job", RoutingStrategy.FIRST).slot()).isEqualTo(3);
    assertThat(router.route("app", "tick", "job", RoutingStrategy.LAST).slot()).isEqualTo(5);
    Map<Integer, Integer> perSlot = new java.util.HashMap<>();
    for (int i = 0; i < 1_000; i++) {
      Route route = router.route("app", "tick", "job-" + i, RoutingStrategy.CONSISTENT_HASH);
      assertThat(router.route("app", "tick", "job-" + i, RoutingStrategy.CONSISTENT_HASH))
          .isEqualTo(route);
      perSlot.merge(route.slot(), 1, Integer::sum);
    }
    assertThat(perSlot.keySet()).containsExactlyInAnyOrder(3, 5);
  }

  @Test
  void aChosenSlotIsRoutedToOnlyWhileItsLiveLeaseHostsTheHandler() {
    live = List.of(slot(0, "tick"), slot(2, "other"), slot(4, "tick"));
    assertThat(router.routeTo("app", "tick", 4)).isEqualTo(Route.single(4));
    assertThat(router.routeTo("app", "tick", 2).isEmpty()).as("slot 2 hosts another").isTrue();
    assertThat(router.routeTo("app", "tick", 3).isEmpty()).as("no lease on slot 3").isTrue();
    assertThat(router.routeTo("app", "tick", 0).broadcast()).isFalse();
  }

  @Test
  void broadcastRoutesToEveryHostingSlot() {
    live = List.of(slot(0, "tick"), slot(2, "other"), slot(4, "tick"), slot(7, "tick"));
    Route route = router.route("app", "tick", "job", RoutingStrategy.SHARDING_BROADCAST);
    assertThat(route.broadcast()).isTrue();
    assertThat(route.slots()).containsExactly(0, 4, 7);
  }

  @Test
  void slotsAreReadOncePerTtlPerAppAndAgainAfterInvalidate() {
    live = List.of(slot(0, "tick"));
    for (int i = 0; i < 100; i++) {
      router.route("app", "tick", "job-" + i, RoutingStrategy.ROUND);
    }
    assertThat(reads).hasValue(1);
    nanos.addAndGet(Duration.ofMillis(999).toNanos());
    router.route("app", "tick", "job", RoutingStrategy.ROUND);
    assertThat(reads).hasValue(1);
    nanos.addAndGet(Duration.ofMillis(1).toNanos());
    router.route("app", "tick", "job", RoutingStrategy.ROUND);
    assertThat(reads).hasValue(2);
    router.invalidate("app");
    router.route("app", "tick", "job", RoutingStrategy.ROUND);
    assertThat(reads).hasValue(3);
  }

  private static SlotInfo slot(int index, String handler) {
    return new SlotInfo("exec-" + index, "host", List.of(handler), index, 0, 1, false);
  }
}
