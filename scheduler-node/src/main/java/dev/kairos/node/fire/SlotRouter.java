package dev.kairos.node.fire;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.mq.slot.LiveSlots;
import dev.kairos.node.route.Route;
import dev.kairos.node.route.SlotChoosers;
import dev.kairos.protocol.slot.SlotInfo;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Routes a fire to the executor slot(s) of its app that host its handler, by the job's routing
 * strategy. The live slots of an app are read once per {@code ttl} (one script call, shared by
 * every fire of the app in that time; concurrent misses of one app wait for a single read), so a
 * burst of thousands of fires costs one Redis round trip per app. Thread-safe.
 */
public final class SlotRouter {

  private final LoadingCache<String, LiveSlots> byApp;
  private final SlotChoosers choosers;

  /**
   * @param read one read of an app's live slots, e.g. {@code SlotRegistry::read}
   * @param ttl how long one read of an app's slots is used
   * @param nanos the monotonic time source of the cache (and of the per-job routing memory)
   */
  public SlotRouter(
      Function<String, LiveSlots> read, Duration ttl, LongSupplier nanos, SlotChoosers choosers) {
    Objects.requireNonNull(read, "read");
    Objects.requireNonNull(nanos, "nanos");
    this.choosers = Objects.requireNonNull(choosers, "choosers");
    this.byApp =
        Caffeine.newBuilder().expireAfterWrite(ttl).ticker(nanos::getAsLong).build(read::apply);
  }

  /**
   * A router over slot lists without the lease clock (lease ages then count as fresh), with the
   * default choosers; for tests and tools.
   */
  public SlotRouter(Function<String, List<SlotInfo>> liveSlots, Duration ttl, LongSupplier nanos) {
    this(app -> new LiveSlots(0, liveSlots.apply(app)), ttl, nanos, SlotChoosers.create());
  }

  /**
   * Where a fire of {@code jobId} goes: empty when no live executor of {@code app} hosts {@code
   * handler}, every hosting slot for SHARDING_BROADCAST, else the one slot its strategy chooses.
   */
  public Route route(String app, String handler, String jobId, RoutingStrategy strategy) {
    LiveSlots live = byApp.get(app);
    List<SlotInfo> hosting = live.hosting(handler);
    if (hosting.isEmpty()) {
      return Route.none();
    }
    if (strategy == RoutingStrategy.SHARDING_BROADCAST) {
      return new Route(hosting.stream().map(SlotInfo::slot).toList(), true);
    }
    return Route.single(choosers.of(strategy).choose(jobId, hosting, live.nowMs()).slot());
  }

  /**
   * Where a "trigger now" on a chosen slot goes: that slot when it has a live lease hosting {@code
   * handler}, else nowhere (the trigger waits for it like any fire without an executor).
   */
  public Route routeTo(String app, String handler, int slot) {
    for (SlotInfo info : byApp.get(app).hosting(handler)) {
      if (info.slot() == slot) {
        return Route.single(slot);
      }
    }
    return Route.none();
  }

  /** Forgets the cached slots of {@code app}, e.g. after a send to one of them failed. */
  public void invalidate(String app) {
    byApp.invalidate(app);
  }
}
