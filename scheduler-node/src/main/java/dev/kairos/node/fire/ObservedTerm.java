package dev.kairos.node.fire;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The highest leader term this node has seen, fed by the leadership layer and stamped on every
 * trigger message this node sends (informational: fences, not this number, keep stale leaders out).
 * Thread-safe; never goes down.
 */
public final class ObservedTerm implements LongSupplier {

  private final AtomicLong term = new AtomicLong();

  public void observe(long seen) {
    term.accumulateAndGet(seen, Math::max);
  }

  @Override
  public long getAsLong() {
    return term.get();
  }
}
