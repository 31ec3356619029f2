package dev.kairos.core.time;

/**
 * Cluster time in epoch milliseconds. Every scheduling decision (due scores, fire times, misfire
 * checks) reads this instead of the wall clock, so tests set it and nodes agree on it.
 */
@FunctionalInterface
public interface KairosClock {

  long nowMs();
}
