package dev.kairos.node.lifecycle.guard;

/**
 * How long the lost-trigger monitor waits after a pass: its interval, or longer after a pass that
 * read many open triggers. A pass reads the record and the job of every open trigger, so under a
 * backlog (many DISPATCHED triggers waiting in their queues) each pass costs Redis work in
 * proportion to the backlog, taken from the fires that would clear it. Pausing until the pass's
 * reads average out to {@code readsPerSecond} bounds that cost whatever the backlog, so an
 * overloaded cluster degrades instead of feeding its own overload; verdicts come later in
 * proportion. Counted in reads rather than measured in time, so a slow machine does not stretch the
 * pause of an ordinary pass.
 */
record PassPacing(long intervalMs, long readsPerSecond) {

  /**
   * About 2 % of one Redis core at two reads of a few µs each: a pass backs off once a shard set
   * holds more than 10,000 open triggers at the default 5 s interval.
   */
  static final long DEFAULT_READS_PER_SECOND = 2_000;

  PassPacing {
    if (intervalMs <= 0) {
      throw new IllegalArgumentException("intervalMs must be positive: " + intervalMs);
    }
    if (readsPerSecond < 1) {
      throw new IllegalArgumentException("readsPerSecond must be >= 1: " + readsPerSecond);
    }
  }

  static PassPacing of(LostMonitorSettings settings) {
    return new PassPacing(settings.interval().toMillis(), settings.maxReadRate());
  }

  /** The pause before the next pass, after a pass that read {@code read} open triggers. */
  long delayAfter(long read) {
    long spread = Math.max(0, read) * 1_000 / readsPerSecond;
    return Math.max(intervalMs, spread);
  }

  /**
   * Whether a pass that read {@code read} open triggers stretches the pause beyond the interval.
   */
  boolean backsOff(long read) {
    return delayAfter(read) > intervalMs;
  }
}
