package dev.kairos.node.route;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.kairos.core.model.RoutingStrategy;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;

/**
 * The chooser of every single-slot routing strategy; SHARDING_BROADCAST has none (it sends to all
 * live hosting slots). One instance per node: the per-job memory of ROUND, LFU and LRU lives here.
 * Definitions in {@code docs/executors.md}, "Routing strategies".
 */
public final class SlotChoosers {

  private final Map<RoutingStrategy, SlotChooser> byStrategy = new EnumMap<>(RoutingStrategy.class);

  /**
   * @param randomBelow {@code n -> } a uniform int in {@code [0, n)}; must be thread-safe
   * @param ticker the time source of the per-job memory's expiry
   */
  public SlotChoosers(IntUnaryOperator randomBelow, Ticker ticker) {
    byStrategy.put(RoutingStrategy.FIRST, (job, hosting, now) -> hosting.get(0));
    byStrategy.put(RoutingStrategy.LAST, (job, hosting, now) -> hosting.get(hosting.size() - 1));
    byStrategy.put(RoutingStrategy.ROUND, new RoundChooser(randomBelow, ticker));
    byStrategy.put(
        RoutingStrategy.RANDOM,
        (job, hosting, now) -> hosting.get(randomBelow.applyAsInt(hosting.size())));
    byStrategy.put(RoutingStrategy.CONSISTENT_HASH, new RendezvousChooser());
    byStrategy.put(RoutingStrategy.LEAST_FREQUENTLY_USED, UsageChooser.leastFrequentlyUsed(ticker));
    byStrategy.put(RoutingStrategy.LEAST_RECENTLY_USED, UsageChooser.leastRecentlyUsed(ticker));
    byStrategy.put(RoutingStrategy.FAILOVER, LeaseAwareChooser.failover());
    byStrategy.put(RoutingStrategy.BUSYOVER, LeaseAwareChooser.busyover());
  }

  /** Choosers on the system ticker with a thread-safe random source. */
  public static SlotChoosers create() {
    return new SlotChoosers(n -> ThreadLocalRandom.current().nextInt(n), Ticker.systemTicker());
  }

  /**
   * @throws IllegalArgumentException for SHARDING_BROADCAST, which does not choose one slot
   */
  public SlotChooser of(RoutingStrategy strategy) {
    SlotChooser chooser = byStrategy.get(strategy);
    if (chooser == null) {
      throw new IllegalArgumentException(strategy + " does not choose a single slot");
    }
    return chooser;
  }
}
