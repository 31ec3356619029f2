package dev.kairos.mq.executor;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link ExecutorStats}: per hosted handler for what happens to a trigger, per
 * instance for the rest. The handler set is fixed at construction, so the maps are read-only after
 * it and every counter is a {@link LongAdder}: thread-safe without locks.
 */
final class ExecutorCounters {

  /** What can happen to one delivery of a trigger of a hosted handler. */
  enum Outcome {
    STARTED,
    DUPLICATE,
    EXPIRED,
    DISCARDED,
    SUCCEEDED,
    FAILED,
    TIMED_OUT,
    CANCELLED,
    /** Dropped at the start claim: its job was deleted, disabled or rescheduled after dispatch. */
    DROPPED
  }

  private final Map<String, Map<Outcome, LongAdder>> byHandler = new TreeMap<>();
  private final LongAdder unhosted = new LongAdder();
  final LongAdder malformed = new LongAdder();
  final LongAdder leaseLost = new LongAdder();
  final LongAdder errors = new LongAdder();

  /** Runs interrupted and recorded CANCELLED because an operator cancelled their trigger. */
  final LongAdder cancelled = new LongAdder();

  ExecutorCounters(Collection<String> handlers) {
    for (String handler : handlers) {
      Map<Outcome, LongAdder> counters = new EnumMap<>(Outcome.class);
      for (Outcome outcome : Outcome.values()) {
        counters.put(outcome, new LongAdder());
      }
      byHandler.put(handler, counters);
    }
  }

  void count(String handler, Outcome outcome) {
    Map<Outcome, LongAdder> counters = byHandler.get(handler);
    if (counters != null) {
      counters.get(outcome).increment();
    } else if (outcome == Outcome.FAILED) {
      unhosted.increment();
    }
  }

  ExecutorStats of(String handler) {
    Map<Outcome, LongAdder> c = byHandler.get(handler);
    if (c == null) {
      throw new IllegalArgumentException("handler " + handler + " is not hosted here");
    }
    return new ExecutorStats(
        c.get(Outcome.STARTED).sum(),
        c.get(Outcome.DUPLICATE).sum(),
        c.get(Outcome.EXPIRED).sum(),
        c.get(Outcome.DISCARDED).sum(),
        c.get(Outcome.SUCCEEDED).sum(),
        c.get(Outcome.FAILED).sum(),
        c.get(Outcome.TIMED_OUT).sum(),
        0,
        0,
        0,
        c.get(Outcome.DROPPED).sum());
  }

  ExecutorStats total() {
    long[] sums = new long[Outcome.values().length];
    for (Map<Outcome, LongAdder> counters : byHandler.values()) {
      counters.forEach((outcome, adder) -> sums[outcome.ordinal()] += adder.sum());
    }
    return new ExecutorStats(
        sums[Outcome.STARTED.ordinal()],
        sums[Outcome.DUPLICATE.ordinal()],
        sums[Outcome.EXPIRED.ordinal()],
        sums[Outcome.DISCARDED.ordinal()],
        sums[Outcome.SUCCEEDED.ordinal()],
        sums[Outcome.FAILED.ordinal()] + unhosted.sum(),
        sums[Outcome.TIMED_OUT.ordinal()],
        malformed.sum(),
        leaseLost.sum(),
        errors.sum(),
        sums[Outcome.DROPPED.ordinal()]);
  }
}
