package dev.kairos.node.cluster.drain;

/** Where a node's drain stands; the order is the order of the steps. */
public enum DrainPhase {
  /** Not asked to drain: a normal member. */
  SERVING,
  /** Gave up leadership (or the chance of it) and waits until another member leads. */
  RESIGNING,
  /** Takes no more due entries and waits until its in-flight sends are acknowledged. */
  QUIESCING,
  /** Marked draining: the leader moves its wheel to the other members; waits until it is empty. */
  HANDING_OFF,
  /** Stops its fire path and leaves the ZooKeeper membership. */
  LEAVING,
  /** Out of the cluster, holding nothing; safe to stop. */
  DRAINED,
  /** A step did not finish within the drain timeout; asking again resumes from the start. */
  FAILED;

  /** A drain runs: neither serving, nor drained, nor failed. */
  public boolean inProgress() {
    return this != SERVING && this != DRAINED && this != FAILED;
  }
}
