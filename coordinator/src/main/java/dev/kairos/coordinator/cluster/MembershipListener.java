package dev.kairos.coordinator.cluster;

/** Joins and leaves as the ZooKeeper member list shows them; called on Curator's cache thread. */
public interface MembershipListener {

  default void joined(Member member) {}

  default void left(Member member) {}
}
