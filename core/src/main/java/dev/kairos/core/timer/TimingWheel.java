package dev.kairos.core.timer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A passive, bounded set of pending fires with millisecond resolution. It never looks at a clock:
 * whoever drives it (a {@link WheelTicker}, or a test) says what time it is through {@link
 * #advanceTo(long)}, which hands back every entry that is due, earliest first.
 *
 * <p>Entries are kept in a skip list ordered by (fire time, trigger id), so {@code add}, {@code
 * remove} and finding the earliest entry are O(log n) however far apart the fire times are: there
 * are no buckets to overflow and no fixed tick. A trigger id is pending at most once; adding it
 * again replaces the earlier entry (a re-claim after failover, or a reconcile re-reading Redis).
 *
 * <p>Thread-safety: any thread may add and remove while one thread advances. Every entry leaves
 * through a successful {@code byId.remove(id, entry)}, so a concurrent remove, replace and advance
 * hand an entry out at most once.
 */
public final class TimingWheel<P> {

  /** What {@link #add} did with an entry. */
  public enum AddResult {
    /**
     * Pending; it will be handed out by the first {@code advanceTo(t)} with {@code t >= fireMs}.
     */
    SCHEDULED,
    /** Already due at the wheel's current time: not stored, the caller must run it at once. */
    DUE,
    /** Not stored: the wheel holds its maximum of pending entries. Logged and counted. */
    REJECTED
  }

  public static final int DEFAULT_MAX_PENDING = 1_000_000;

  private static final Logger log = LoggerFactory.getLogger(TimingWheel.class);

  private record Slot(long fireMs, String triggerId) implements Comparable<Slot> {
    @Override
    public int compareTo(Slot o) {
      int byTime = Long.compare(fireMs, o.fireMs);
      return byTime != 0 ? byTime : triggerId.compareTo(o.triggerId);
    }
  }

  private final int maxPending;
  private final ConcurrentSkipListMap<Slot, TimedEntry<P>> bySchedule =
      new ConcurrentSkipListMap<>();
  private final ConcurrentHashMap<String, TimedEntry<P>> byId = new ConcurrentHashMap<>();
  private final AtomicLong currentMs;
  private final LongAdder rejected = new LongAdder();

  /**
   * @param startMs the wheel's current time; entries at or before it are due on arrival
   * @param maxPending the most entries held at once; adds beyond it are rejected
   */
  public TimingWheel(long startMs, int maxPending) {
    if (maxPending < 1) {
      throw new IllegalArgumentException("maxPending must be positive: " + maxPending);
    }
    this.maxPending = maxPending;
    this.currentMs = new AtomicLong(startMs);
  }

  /**
   * Holds the entry until it is due, or hands it back ({@link AddResult#DUE}) when its fire time is
   * not after the wheel's current time. Replaces a pending entry with the same trigger id.
   */
  public AddResult add(TimedEntry<P> entry) {
    if (entry.fireMs() <= currentMs.get()) {
      return AddResult.DUE;
    }
    // The bound is checked before the insert, so concurrent adds may overshoot it by the number
    // of adding threads; it protects memory, it is not an exact quota.
    if (byId.size() >= maxPending && !byId.containsKey(entry.triggerId())) {
      rejected.increment();
      long count = rejected.sum();
      if (Long.bitCount(count) == 1) { // 1st, 2nd, 4th, 8th... rejection: visible, not a flood
        log.warn(
            "Timing wheel full ({} pending): rejected trigger {} ({} rejections so far)",
            maxPending,
            entry.triggerId(),
            count);
      }
      return AddResult.REJECTED;
    }
    TimedEntry<P> previous = byId.put(entry.triggerId(), entry);
    if (previous != null) {
      bySchedule.remove(slotOf(previous), previous);
    }
    bySchedule.put(slotOf(entry), entry);
    return AddResult.SCHEDULED;
  }

  /** Forgets the trigger; returns the entry that was pending, or {@code null}. */
  public TimedEntry<P> remove(String triggerId) {
    TimedEntry<P> removed = byId.remove(triggerId);
    if (removed != null) {
      bySchedule.remove(slotOf(removed), removed);
    }
    return removed;
  }

  /**
   * Moves the wheel's time forward to {@code nowMs} (never backwards) and returns every entry due
   * by then, ordered by fire time and then trigger id. Meant for one driving thread.
   */
  public List<TimedEntry<P>> advanceTo(long nowMs) {
    currentMs.accumulateAndGet(nowMs, Math::max);
    List<TimedEntry<P>> due = new ArrayList<>();
    Map.Entry<Slot, TimedEntry<P>> first;
    while ((first = bySchedule.firstEntry()) != null && first.getKey().fireMs() <= nowMs) {
      TimedEntry<P> entry = first.getValue();
      // Safety: remove from the schedule first, then claim through byId; a replace or remove that
      // got there first owns the id, and this stale slot is simply dropped.
      if (bySchedule.remove(first.getKey(), entry) && byId.remove(entry.triggerId(), entry)) {
        due.add(entry);
      }
    }
    return due;
  }

  /** Fire time of the earliest pending entry, empty when nothing is pending. */
  public OptionalLong nextFireMs() {
    Map.Entry<Slot, TimedEntry<P>> first = bySchedule.firstEntry();
    return first == null ? OptionalLong.empty() : OptionalLong.of(first.getKey().fireMs());
  }

  /** The wheel's current time: the latest {@code advanceTo} argument, or the start time. */
  public long currentMs() {
    return currentMs.get();
  }

  public boolean contains(String triggerId) {
    return byId.containsKey(triggerId);
  }

  /** Number of pending entries. */
  public int size() {
    return byId.size();
  }

  public int maxPending() {
    return maxPending;
  }

  /** How many adds were rejected because the wheel was full. */
  public long rejectedCount() {
    return rejected.sum();
  }

  private static Slot slotOf(TimedEntry<?> entry) {
    return new Slot(entry.fireMs(), entry.triggerId());
  }
}
