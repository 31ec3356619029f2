package dev.kairos.coordinator.cluster;

/** Joins, leaves and drain marks as ZooKeeper shows them; called on Curator's cache threads. */
public interface MembershipListener {

  default void joined(Member member) {}

  default void left(Member member) {}

  /** {@code member} asked to be drained ({@link DrainMarks}): its wheel is to be handed over. */
  default void draining(Member member) {}
}
