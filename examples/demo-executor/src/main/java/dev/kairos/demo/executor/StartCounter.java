package dev.kairos.demo.executor;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * How many times each trigger id started a handler in this process, so the demo can print "executed
 * / duplicates". With the start claim, every value should be 1. Thread-safe. Grows by one entry per
 * trigger: fine for a demo, not for a service that runs for months.
 */
@Component
public class StartCounter {

  private final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();

  void started(String triggerId) {
    starts.computeIfAbsent(triggerId, k -> new AtomicInteger()).incrementAndGet();
  }

  /** Distinct trigger ids that started. */
  public int executed() {
    return starts.size();
  }

  /** Starts beyond the first of a trigger id: 0 unless a duplicate got through. */
  public int duplicateStarts() {
    return starts.values().stream().mapToInt(c -> c.get() - 1).sum();
  }

  public int startsOf(String triggerId) {
    AtomicInteger count = starts.get(triggerId);
    return count == null ? 0 : count.get();
  }

  /** Trigger id → starts, sorted by trigger id. */
  public Map<String, Integer> snapshot() {
    Map<String, Integer> copy = new TreeMap<>();
    starts.forEach((id, count) -> copy.put(id, count.get()));
    return copy;
  }
}
