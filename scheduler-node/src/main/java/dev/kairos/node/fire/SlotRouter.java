package dev.kairos.node.fire;

import dev.kairos.mq.slot.SlotInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Chooses the executor slot of a fire among the live slots of its app that host its handler. The
 * live slots of an app are read once per {@code ttl} (one script call, shared by every fire of the
 * app in that time), so a burst of thousands of fires costs one Redis round trip per app.
 *
 * <p>Routing today is a stable hash of the job id over the live slots (a job keeps its slot while
 * the slots do not change); the job's routing strategy (ROUND, RANDOM, SHARDING_BROADCAST...) is a
 * later step. Thread-safe; two threads refreshing the same app at once both read, last one wins.
 */
public final class SlotRouter {

  private record Cached(List<SlotInfo> slots, long readAtNanos) {}

  private final Function<String, List<SlotInfo>> liveSlots;
  private final long ttlNanos;
  private final LongSupplier nanos;
  private final Map<String, Cached> byApp = new ConcurrentHashMap<>();

  /**
   * @param liveSlots the live slots of an app, e.g. {@code SlotRegistry::liveSlots}
   * @param ttl how long one read of an app's slots is used
   */
  public SlotRouter(Function<String, List<SlotInfo>> liveSlots, Duration ttl, LongSupplier nanos) {
    this.liveSlots = Objects.requireNonNull(liveSlots, "liveSlots");
    this.ttlNanos = ttl.toNanos();
    this.nanos = Objects.requireNonNull(nanos, "nanos");
  }

  /**
   * The slot for this fire, or empty when no live executor of {@code app} hosts {@code handler}.
   */
  public OptionalInt slotFor(String app, String handler, String jobId) {
    List<SlotInfo> hosting = slotsOf(app).stream().filter(s -> s.hosts(handler)).toList();
    if (hosting.isEmpty()) {
      return OptionalInt.empty();
    }
    int index = Math.floorMod(spread(jobId.hashCode()), hosting.size());
    return OptionalInt.of(hosting.get(index).slot());
  }

  /** Forgets the cached slots of {@code app}, e.g. after a send to one of them failed. */
  public void invalidate(String app) {
    byApp.remove(app);
  }

  private List<SlotInfo> slotsOf(String app) {
    long now = nanos.getAsLong();
    Cached cached = byApp.get(app);
    if (cached == null || now - cached.readAtNanos >= ttlNanos) {
      cached = new Cached(List.copyOf(liveSlots.apply(app)), now);
      byApp.put(app, cached);
    }
    return cached.slots;
  }

  /** String hash codes of similar ids differ in their low bits only; mix them. */
  private static int spread(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    return h;
  }
}
