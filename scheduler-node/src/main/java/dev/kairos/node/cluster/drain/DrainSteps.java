package dev.kairos.node.cluster.drain;

import dev.kairos.coordinator.failover.NodeHoldings;

/**
 * What a drain asks of this node, each step idempotent so a failed drain can be asked again. The
 * cluster side implements it over the node's membership, leadership and fire path.
 */
public interface DrainSteps {

  /** This node's stable name. */
  String node();

  /** How many other members, not draining themselves, could take this node's wheel. */
  int otherServingMembers();

  /** Stops standing for election; a leader steps down and deletes its leader znode. */
  void resign();

  /** Another member leads (a term at least the one this node saw when it resigned). */
  boolean leaderElsewhere();

  /** Stops taking due entries off the persisted wheel. */
  void quiesceFiring();

  /** The fire path has nothing of its own in flight (takes, sends awaiting the broker). */
  boolean firingQuiet();

  /** Marks this node draining, so the leader moves its wheel; re-asserted while waiting. */
  void markDraining();

  /** What this node still holds in Redis. */
  NodeHoldings.Held held();

  /** Closes the fire path and leaves the membership (the member znode is deleted). */
  void leave();

  /** Whether ZooKeeper still shows this node's member znode. */
  boolean isMember();
}
