package dev.kairos.node.cluster.internal;

import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.coordinator.cluster.ZkMembership;
import dev.kairos.node.alarm.LeaderView;
import org.apache.curator.framework.CuratorFramework;

/**
 * Leadership as the alarm monitors see it, read from this node's own membership and leadership
 * manager (no ZooKeeper round trip: the membership cache and the connection flag).
 */
public final class ClusterLeaderView implements LeaderView {

  private final LeadershipManager manager;
  private final ZkMembership membership;
  private final CuratorFramework client;
  private final String self;

  public ClusterLeaderView(
      LeadershipManager manager, ZkMembership membership, CuratorFramework client) {
    this.manager = manager;
    this.membership = membership;
    this.client = client;
    this.self = membership.self().name();
  }

  @Override
  public boolean isMember() {
    // The cache keeps showing this node while the session is suspended: also require a connection.
    return client.getZookeeperClient().isConnected() && membership.current().contains(self);
  }

  @Override
  public boolean isLeader() {
    return manager.isLeader();
  }

  @Override
  public boolean hearsLeader() {
    // Term 0 means no leader was ever seen: nothing to hear (stillHearsLeader(0) would be true
    // for the first leader timeout after start).
    return manager.isLeader() || manager.stillHearsLeader(Math.max(1, manager.observedTerm()));
  }

  @Override
  public long observedTerm() {
    return manager.observedTerm();
  }
}
