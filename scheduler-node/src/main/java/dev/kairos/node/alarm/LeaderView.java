package dev.kairos.node.alarm;

/** What this node knows about the cluster's leader, for the alarm monitors. Thread-safe. */
public interface LeaderView {

  /** This node's ZooKeeper session is connected and its membership znode is live. */
  boolean isMember();

  /** This node leads a term. */
  boolean isLeader();

  /**
   * This node leads, or heard a heartbeat of the highest term it knows within the leader timeout.
   */
  boolean hearsLeader();

  /** The highest leader term this node has seen (0 before any). */
  long observedTerm();
}
