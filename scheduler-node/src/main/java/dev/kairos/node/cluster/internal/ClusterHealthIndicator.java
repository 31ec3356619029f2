package dev.kairos.node.cluster.internal;

import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.coordinator.cluster.ZkMembership;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code cluster} health component: this node's view of leadership. Always UP while the manager
 * runs (a follower without a leader is a transient state the election resolves; ZooKeeper health
 * reports the connection); the details say who leads which term.
 */
class ClusterHealthIndicator extends AbstractHealthIndicator {

  private final LeadershipManager manager;
  private final ZkMembership membership;
  private final LeaderTracker tracker;
  private final LeaderDuties duties;

  ClusterHealthIndicator(
      LeadershipManager manager,
      ZkMembership membership,
      LeaderTracker tracker,
      LeaderDuties duties) {
    super("cluster health check failed");
    this.manager = manager;
    this.membership = membership;
    this.tracker = tracker;
    this.duties = duties;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    long leading = manager.leadingTerm();
    long observed = manager.observedTerm();
    LeaderTracker.Heard heard = tracker.last();
    String leaderId =
        leading > 0 ? membership.self().name() : heard.term() == observed ? heard.leaderId() : "";
    builder
        .up()
        .withDetail("node", membership.self().name())
        .withDetail("term", observed)
        .withDetail("leader", leaderId)
        .withDetail("isLeader", leading > 0)
        .withDetail("scanningTerm", duties.scanningTerm())
        .withDetail("firstScanMs", duties.firstScanMs())
        .withDetail("members", membership.current());
  }
}
