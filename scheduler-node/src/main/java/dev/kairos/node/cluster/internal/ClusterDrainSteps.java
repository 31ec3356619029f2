package dev.kairos.node.cluster.internal;

import dev.kairos.coordinator.cluster.ZkLayout;
import dev.kairos.coordinator.failover.NodeHoldings;
import dev.kairos.node.cluster.drain.DrainSteps;
import dev.kairos.node.fire.NodeFirePath;
import org.apache.curator.framework.CuratorFramework;

/**
 * {@link DrainSteps} over this node's cluster membership, leadership and fire path. A node without
 * a fire path (it only leads) has nothing to quiesce.
 */
final class ClusterDrainSteps implements DrainSteps {

  private final ClusterNode node;
  private final NodeFirePath firePath;
  private final NodeHoldings holdings;
  private final LeaderTracker tracker;
  private final CuratorFramework client;
  private final ZkLayout layout;
  private final String self;

  /** The term this node saw when it resigned and whether it led it; written by the drain thread. */
  private volatile long resignedTerm = -1;

  private volatile boolean resignedAsLeader;

  ClusterDrainSteps(
      ClusterNode node,
      NodeFirePath firePath,
      NodeHoldings holdings,
      LeaderTracker tracker,
      CuratorFramework client,
      ZkLayout layout) {
    this.node = node;
    this.firePath = firePath;
    this.holdings = holdings;
    this.tracker = tracker;
    this.client = client;
    this.layout = layout;
    this.self = node.membership().self().name();
  }

  @Override
  public String node() {
    return self;
  }

  @Override
  public int otherServingMembers() {
    return (int)
        node.membership().current().stream()
            .filter(name -> !name.equals(self) && !node.drainMarks().isDraining(name))
            .count();
  }

  @Override
  public void resign() {
    if (resignedTerm < 0) {
      resignedAsLeader = node.manager().isLeader();
      resignedTerm = node.manager().observedTerm();
    }
    node.resign();
  }

  /**
   * A heartbeat from another member of the term this node saw when it resigned, or (if it led that
   * term) of a higher one: someone else leads and counts this node as a follower.
   */
  @Override
  public boolean leaderElsewhere() {
    LeaderTracker.Heard heard = tracker.last();
    if (heard.leaderId().isEmpty() || heard.leaderId().equals(self)) {
      return false;
    }
    return resignedAsLeader ? heard.term() > resignedTerm : heard.term() >= resignedTerm;
  }

  @Override
  public void quiesceFiring() {
    if (firePath != null) {
      firePath.quiesce();
    }
  }

  @Override
  public boolean firingQuiet() {
    return firePath == null || firePath.quiet();
  }

  @Override
  public void markDraining() {
    node.drainMarks().mark(node.membership().self());
  }

  @Override
  public NodeHoldings.Held held() {
    return holdings.of(self);
  }

  @Override
  public void leave() {
    if (firePath != null) {
      firePath.close();
    }
    node.close();
    node.drainMarks().unmark(node.membership().self());
  }

  @Override
  public boolean isMember() {
    try {
      return client.checkExists().forPath(layout.member(self)) != null;
    } catch (Exception e) {
      throw new IllegalStateException("cannot read " + layout.member(self), e);
    }
  }
}
