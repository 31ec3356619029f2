package dev.kairos.demo.executor;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * How many times each trigger id started a handler in this process, and how late each start was, so
 * the demo can print "executed / duplicates / lateness". With the start claim, every count is 1.
 * Thread-safe. Grows by one entry per trigger: fine for a demo, not for a service that runs for
 * months; lateness keeps only the most recent {@value #LATENESS_SAMPLES} starts.
 */
@Component
public class StartCounter {

  static final int LATENESS_SAMPLES = 10_000;

  private final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
  private final long[] lateness = new long[LATENESS_SAMPLES];
  private long recorded;

  void started(String triggerId, long scheduledFireMs) {
    starts.computeIfAbsent(triggerId, k -> new AtomicInteger()).incrementAndGet();
    long late = System.currentTimeMillis() - scheduledFireMs;
    synchronized (lateness) {
      lateness[(int) (recorded++ % LATENESS_SAMPLES)] = late;
    }
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

  /**
   * Start lateness (handler start − scheduled fire, by this machine's wall clock) at quantile
   * {@code q} in [0, 1] over the most recent starts, or -1 before the first start.
   */
  public long latenessMs(double q) {
    long[] copy;
    synchronized (lateness) {
      copy = Arrays.copyOf(lateness, (int) Math.min(recorded, LATENESS_SAMPLES));
    }
    if (copy.length == 0) {
      return -1;
    }
    Arrays.sort(copy);
    int rank = (int) Math.ceil(q * copy.length) - 1; // nearest-rank quantile
    return copy[Math.max(0, Math.min(copy.length - 1, rank))];
  }

  /** Trigger id → starts, sorted by trigger id. */
  public Map<String, Integer> snapshot() {
    Map<String, Integer> copy = new TreeMap<>();
    starts.forEach((id, count) -> copy.put(id, count.get()));
    return copy;
  }
}
