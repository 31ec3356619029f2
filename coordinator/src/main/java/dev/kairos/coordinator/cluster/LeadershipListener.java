package dev.kairos.coordinator.cluster;

/**
 * Leadership edges of one node. {@code onElected} and {@code onRevoked} alternate strictly (each
 * fires only when the state flips), always for the same term in a pair; calls are serialised and
 * must return quickly (start or close a scan loop, no blocking I/O beyond that).
 */
public interface LeadershipListener {

  /** This node now leads {@code term}: start fencing, scanning and sweeping under it. */
  default void onElected(long term) {}

  /** This node no longer leads {@code term}: stop every leader write at once. */
  default void onRevoked(long term) {}

  /** The highest term this node knows of went up to {@code term} (its own or another's). */
  default void onTermObserved(long term) {}

  /**
   * While leading {@code term}, this node declared {@code member} dead: it has not answered
   * heartbeats for the leader timeout (its znode may still exist). Called on the leadership thread.
   */
  default void onFollowerDead(long term, Member member) {}
}
