package dev.kairos.node.alarm;

/**
 * One cluster condition the {@link ConditionMonitor} looks at every interval. Implementations keep
 * their state for the monitor thread only, so they need no locking.
 */
interface ConditionCheck {

  /** Short name: thread-free logs and the {@code check} tag of the metrics. */
  String name();

  /** Looks once; raises an alarm while the condition holds (the sink de-duplicates). */
  void check();

  /** Whether the condition held at the last look, for the gauge. */
  boolean active();
}
