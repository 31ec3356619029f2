package dev.kairos.coordinator.cluster;

import dev.kairos.core.error.KairosException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ClusterTransport} between managers of one JVM: direct method calls. Heartbeats to a
 * member can be blocked (a one-way partition from the leader to that member) to drill the
 * down-confirmation. Thread-safe.
 */
public final class InProcessTransport implements ClusterTransport {

  private final Map<String, LeadershipManager> managers = new ConcurrentHashMap<>();
  private final Set<String> heartbeatsBlocked = ConcurrentHashMap.newKeySet();

  public void register(String nodeName, LeadershipManager manager) {
    managers.put(nodeName, manager);
  }

  public void unregister(String nodeName) {
    managers.remove(nodeName);
  }

  /** Heartbeats sent to {@code nodeName} fail as if the network dropped them. */
  public void blockHeartbeatsTo(String nodeName) {
    heartbeatsBlocked.add(nodeName);
  }

  public void unblockHeartbeatsTo(String nodeName) {
    heartbeatsBlocked.remove(nodeName);
  }

  @Override
  public long heartbeat(Member target, long term, String leaderId) {
    if (heartbeatsBlocked.contains(target.name())) {
      throw new KairosException("heartbeat to " + target.name() + " blocked");
    }
    LeadershipManager receiver = receiver(target);
    long observed = receiver.onHeartbeat(term, leaderId);
    if (!receiver.servesFires()) {
      throw new KairosException(target.name() + " heard the heartbeat but does not reach Redis");
    }
    return observed;
  }

  @Override
  public boolean askStillHearLeader(Member target, long term) {
    return receiver(target).stillHearsLeader(term);
  }

  private LeadershipManager receiver(Member target) {
    LeadershipManager manager = managers.get(target.name());
    if (manager == null || !manager.incarnation().equals(target.incarnation())) {
      throw new KairosException(
          "no reachable incarnation " + target.incarnation() + " of " + target.name());
    }
    return manager;
  }
}
