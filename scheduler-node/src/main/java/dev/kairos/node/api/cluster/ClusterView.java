package dev.kairos.node.api.cluster;

import java.util.List;

/**
 * The cluster as this node sees it.
 *
 * @param node the node that answered
 * @param shards shard count fixed in Redis
 * @param observedTerm highest leader term this node has seen (0 when it takes no part in the
 *     election)
 * @param leader the ZooKeeper leader znode: who leads which term; null during an election
 * @param members live nodes (ZooKeeper membership)
 * @param wheels per node name owning wheel keys in any shard (live or not): entries waiting on its
 *     persisted wheel and entries taken off it and not yet acknowledged by the broker
 * @param fences lowest and highest fence over the shards (a shard never written by a leader has 0)
 * @param scan how far behind the due ZSETs are: the oldest unclaimed fire
 * @param sync persistence-sync lag; null on a node without PostgreSQL
 */
public record ClusterView(
    String node,
    int shards,
    long observedTerm,
    Leader leader,
    List<Member> members,
    List<Wheel> wheels,
    Fences fences,
    Scan scan,
    Sync sync) {

  public record Leader(String node, long term, String address) {}

  public record Member(String name, String incarnation, String internalAddress, long startMs) {}

  public record Wheel(String node, boolean live, long wheelEntries, long inflightEntries) {}

  public record Fences(long lowest, long highest) {}

  /**
   * @param oldestDueMs earliest score over the due ZSETs (null when nothing is scheduled)
   * @param lagMs how long that fire is overdue, 0 when it is not yet due; a lasting value above the
   *     scan interval means fires are not being claimed (no leader, or a leader failing)
   */
  public record Scan(Long oldestDueMs, long lagMs) {}

  public record Sync(long maxLagMs, long thresholdMs, boolean lagging) {}
}
