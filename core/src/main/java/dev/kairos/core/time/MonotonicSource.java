package dev.kairos.core.time;

/**
 * A clock that only moves forward at a steady rate and has no relation to calendar time; stepping
 * the wall clock does not move it. Injectable so tests drive it by hand.
 */
@FunctionalInterface
public interface MonotonicSource {

  MonotonicSource SYSTEM = System::nanoTime;

  long nanos();
}
