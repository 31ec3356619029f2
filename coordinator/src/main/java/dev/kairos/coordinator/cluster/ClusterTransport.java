package dev.kairos.coordinator.cluster;

/**
 * How nodes talk to each other for leadership: the leader's heartbeats and the down-confirmation
 * question. The scheduler node implements it over HTTP (calling the target's {@link
 * LeadershipManager#onHeartbeat} and {@link LeadershipManager#stillHearsLeader}); {@link
 * InProcessTransport} connects managers of one JVM. A call must return or throw within the
 * heartbeat interval; an unreachable target throws.
 */
public interface ClusterTransport {

  /**
   * Tells {@code target} that {@code leaderId} leads {@code term}.
   *
   * @return the highest term {@code target} knows of; above {@code term}, the sender is stale
   */
  long heartbeat(Member target, long term, String leaderId);

  /**
   * Asks {@code target} whether it still hears the leader of {@code term} (or leads it itself).
   * {@code true} denies the down-confirmation.
   */
  boolean askStillHearLeader(Member target, long term);
}
