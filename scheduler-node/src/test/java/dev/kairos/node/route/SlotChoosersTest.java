package dev.kairos.node.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Each single-slot routing strategy routes as docs/executors.md defines it. */
class SlotChoosersTest {

  private static final long NOW = 1_000_000;

  private final AtomicLong ticker = new AtomicLong();
  private final Random random = new Random(42);
  private final SlotChoosers choosers = new SlotChoosers(random::nextInt, ticker::get);

  private final List<SlotInfo> slots = List.of(slot(1), slot(3), slot(4));

  private int choose(RoutingStrategy strategy, String job, List<SlotInfo> hosting) {
    return choosers.of(strategy).choose(job, hosting, NOW).slot();
  }

  @Test
  void firstAndLastPickTheLowestAndHighestLiveSlot() {
    assertThat(choose(RoutingStrategy.FIRST, "job", slots)).isEqualTo(1);
    assertThat(choose(RoutingStrategy.LAST, "job", slots)).isEqualTo(4);
  }

  @Test
  void roundVisitsEveryLiveSlotInTurnPerJob() {
    List<Integer> seen = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      seen.add(choose(RoutingStrategy.ROUND, "job-a", slots));
    }
    int start = List.of(1, 3, 4).indexOf(seen.get(0));
    for (int i = 0; i < 6; i++) {
      assertThat(seen.get(i)).isEqualTo(List.of(1, 3, 4).get((start + i) % 3));
    }
  }

  @Test
  void roundStartsJobsAtDifferentSlots() {
    Set<Integer> firstSlots = new HashSet<>();
    for (int j = 0; j < 30; j++) {
      firstSlots.add(choose(RoutingStrategy.ROUND, "job-" + j, slots));
    }
    assertThat(firstSlots).containsExactlyInAnyOrder(1, 3, 4);
  }

  @Test
  void randomPicksOnlyLiveSlotsAndEachOfThem() {
    Map<Integer, Integer> perSlot = new HashMap<>();
    for (int i = 0; i < 3_000; i++) {
      perSlot.merge(choose(RoutingStrategy.RANDOM, "job", slots), 1, Integer::sum);
    }
    assertThat(perSlot.keySet()).containsExactlyInAnyOrder(1, 3, 4);
    assertThat(perSlot.values()).allSatisfy(n -> assertThat(n).isBetween(800, 1_200));
  }

  @Test
  void consistentHashKeepsAJobOnItsSlotAndMovesOnlyTheJobsOfALeavingSlot() {
    List<SlotInfo> four = List.of(slot(0), slot(1), slot(2), slot(3));
    Map<String, Integer> before = new HashMap<>();
    Map<Integer, Integer> perSlot = new HashMap<>();
    for (int j = 0; j < 4_000; j++) {
      String job = "job-" + j;
      int slot = choose(RoutingStrategy.CONSISTENT_HASH, job, four);
      assertThat(choose(RoutingStrategy.CONSISTENT_HASH, job, four)).isEqualTo(slot);
      before.put(job, slot);
      perSlot.merge(slot, 1, Integer::sum);
    }
    assertThat(perSlot.values()).allSatisfy(n -> assertThat(n).isBetween(800, 1_200));

    List<SlotInfo> withoutTwo = List.of(slot(0), slot(1), slot(3));
    int moved = 0;
    for (Map.Entry<String, Integer> e : before.entrySet()) {
      int after = choose(RoutingStrategy.CONSISTENT_HASH, e.getKey(), withoutTwo);
      if (e.getValue() != 2) {
        assertThat(after).as("job %s not on the leaving slot", e.getKey()).isEqualTo(e.getValue());
      } else {
        assertThat(after).isNotEqualTo(2);
        moved++;
      }
    }
    assertThat(moved).isEqualTo(perSlot.get(2));
  }

  @Test
  void leastFrequentlyUsedBalancesOneJobsFiresAndANewSlotStartsAtTheFloor() {
    Map<Integer, Integer> perSlot = new HashMap<>();
    for (int i = 0; i < 30; i++) {
      perSlot.merge(choose(RoutingStrategy.LEAST_FREQUENTLY_USED, "job", slots), 1, Integer::sum);
    }
    assertThat(perSlot).containsOnlyKeys(1, 3, 4).allSatisfy((s, n) -> assertThat(n).isEqualTo(10));

    // Slot 7 joins with no history: it is not flooded with the next 30 fires, it shares them.
    List<SlotInfo> withSeven = List.of(slot(1), slot(3), slot(4), slot(7));
    Map<Integer, Integer> next = new HashMap<>();
    for (int i = 0; i < 40; i++) {
      next.merge(choose(RoutingStrategy.LEAST_FREQUENTLY_USED, "job", withSeven), 1, Integer::sum);
    }
    assertThat(next).containsOnlyKeys(1, 3, 4, 7).allSatisfy((s, n) -> assertThat(n).isEqualTo(10));
  }

  @Test
  void leastRecentlyUsedPicksTheSlotUnusedTheLongest() {
    int a = choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots);
    int b = choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots);
    int c = choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots);
    assertThat(Set.of(a, b, c)).containsExactlyInAnyOrder(1, 3, 4);
    assertThat(choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots)).isEqualTo(a);
    // Without a's slot, the oldest of the rest is b's.
    List<SlotInfo> withoutA = slots.stream().filter(s -> s.slot() != a).toList();
    assertThat(choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", withoutA)).isEqualTo(b);
    // Last uses are now c (3rd), a (4th), b (5th): c is the oldest.
    assertThat(choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots)).isEqualTo(c);
  }

  @Test
  void perJobMemoryIsForgottenAfterADayWithoutFires() {
    int first = choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots);
    assertThat(choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots)).isNotEqualTo(first);
    ticker.addAndGet(PerJobMemory.FORGET_AFTER.toNanos() + 1);
    assertThat(choose(RoutingStrategy.LEAST_RECENTLY_USED, "job", slots)).isEqualTo(first);
  }

  @Test
  void failoverSkipsSlotsWhoseLeaseMissedARenewal() {
    // TTL 10 s: fresh while renewed at most 5 s ago.
    SlotInfo stale0 = lease(0, NOW - 6_000, false);
    SlotInfo fresh2 = lease(2, NOW - 2_000, false);
    SlotInfo fresh5 = lease(5, NOW - 1_000, false);
    assertThat(choose(RoutingStrategy.FAILOVER, "job", List.of(stale0, fresh2, fresh5)))
        .isEqualTo(2);
    assertThat(choose(RoutingStrategy.FAILOVER, "job", List.of(lease(0, NOW - 5_000, false))))
        .as("exactly half the TTL old is still fresh")
        .isZero();
    assertThat(
            choose(RoutingStrategy.FAILOVER, "job", List.of(stale0, lease(3, NOW - 7_000, false))))
        .as("none fresh: the first live slot")
        .isZero();
  }

  @Test
  void busyoverSkipsBusySlots() {
    SlotInfo busy0 = lease(0, NOW, true);
    SlotInfo idle2 = lease(2, NOW, false);
    SlotInfo idle5 = lease(5, NOW, false);
    assertThat(choose(RoutingStrategy.BUSYOVER, "job", List.of(busy0, idle2, idle5))).isEqualTo(2);
    assertThat(choose(RoutingStrategy.BUSYOVER, "job", List.of(busy0, lease(1, NOW, true))))
        .as("all busy: the first live slot")
        .isZero();
  }

  @Test
  void broadcastHasNoSingleSlotChooser() {
    assertThatThrownBy(() -> choosers.of(RoutingStrategy.SHARDING_BROADCAST))
        .isInstanceOf(IllegalArgumentException.class);
    for (RoutingStrategy s : RoutingStrategy.values()) {
      if (s != RoutingStrategy.SHARDING_BROADCAST) {
        assertThat(choosers.of(s)).as("%s", s).isNotNull();
      }
    }
  }

  private static SlotInfo slot(int index) {
    return lease(index, NOW, false);
  }

  private static SlotInfo lease(int index, long lastRenewalMs, boolean busy) {
    return new SlotInfo(
        "exec-" + index,
        "host",
        List.of("tick"),
        index,
        lastRenewalMs,
        lastRenewalMs + 10_000,
        busy);
  }
}
