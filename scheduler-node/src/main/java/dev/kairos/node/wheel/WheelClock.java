package dev.kairos.node.wheel;

/**
 * The time the wheel fires on, in epoch milliseconds. In production this is cluster time (see
 * DESIGN.md "Cluster time"); tests set it by hand. Stand-in for {@code
 * dev.kairos.core.time.KairosClock}, which has the same single method, so either adapts to the
 * other with a method reference ({@code clock::nowMs}).
 */
@FunctionalInterface
public interface WheelClock {

  long nowMs();
}
