package dev.kairos.coordinator.cluster;

import dev.kairos.core.error.KairosException;
import java.time.Duration;

/**
 * Leadership timing (docs/design.md "Timing parameters"), validated on construction.
 *
 * @param heartbeatInterval how often the leader heartbeats every follower (default 500 ms)
 * @param leaderTimeout how long a follower goes without a heartbeat before it asks the others
 *     (default 3 s)
 * @param sessionTimeout the ZooKeeper session timeout the Curator client was built with (default 6
 *     s)
 * @param sweepInterval how often the leader moves entries of node names that are not live
 */
public record ElectionConfig(
    Duration heartbeatInterval,
    Duration leaderTimeout,
    Duration sessionTimeout,
    Duration sweepInterval) {

  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofMillis(500);
  public static final Duration DEFAULT_LEADER_TIMEOUT = Duration.ofSeconds(3);
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(6);
  public static final Duration DEFAULT_SWEEP_INTERVAL = Duration.ofSeconds(10);

  public ElectionConfig {
    if (heartbeatInterval.multipliedBy(3).compareTo(leaderTimeout) >= 0) {
      throw new KairosException(
          "leader heartbeat interval "
              + heartbeatInterval
              + " must be < leader timeout / 3 ("
              + leaderTimeout
              + ")");
    }
    if (leaderTimeout.compareTo(sessionTimeout) > 0) {
      throw new KairosException(
          "leader timeout "
              + leaderTimeout
              + " must be <= ZooKeeper session timeout "
              + sessionTimeout);
    }
    if (sweepInterval.isNegative() || sweepInterval.isZero()) {
      throw new KairosException("sweep interval must be positive: " + sweepInterval);
    }
  }

  public static ElectionConfig defaults() {
    return new ElectionConfig(
        DEFAULT_HEARTBEAT_INTERVAL,
        DEFAULT_LEADER_TIMEOUT,
        DEFAULT_SESSION_TIMEOUT,
        DEFAULT_SWEEP_INTERVAL);
  }
}
