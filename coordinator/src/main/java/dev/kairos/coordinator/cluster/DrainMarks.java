package dev.kairos.coordinator.cluster;

import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.core.lifecycle.Lifecycle;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The drain marks of the cluster: an ephemeral {@code draining/<node>} znode written by a member
 * that is leaving (a rolling upgrade). A marked member is still a ZooKeeper member, answers
 * heartbeats and keeps its keys, but it is no longer a live node for the leader: the scanner stops
 * assigning to it and the failover sweeper moves its wheel to the others, the same move a dead
 * node's wheel gets (docs/design.md "Leadership"). The mark is ephemeral so it can never outlive
 * the process that asked; it lives in its own folder, not in the member znode, so nodes of an older
 * version simply do not see it.
 *
 * <p>Listeners hear {@link MembershipListener#draining} on Curator's cache thread.
 */
public final class DrainMarks implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DrainMarks.class);

  private final CuratorFramework client;
  private final ZkLayout layout;
  private final Lifecycle lifecycle = new Lifecycle("drain marks");
  private final List<MembershipListener> listeners = new CopyOnWriteArrayList<>();
  private CuratorCache cache;

  public DrainMarks(CuratorFramework client, ZkLayout layout) {
    this.client = client;
    this.layout = layout;
  }

  public void addListener(MembershipListener listener) {
    listeners.add(listener);
  }

  /** Starts watching the marks. */
  public void start() {
    lifecycle.start();
    cache = CuratorCache.build(client, layout.draining());
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forCreates(
                    node -> member(node).ifPresent(m -> listeners.forEach(l -> l.draining(m))))
                .build());
    cache.start();
  }

  /**
   * Marks {@code self} as draining; idempotent, so a drain re-asserts it after a session loss (the
   * ephemeral mark dies with the session that wrote it).
   */
  public void mark(Member self) {
    try {
      client
          .create()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.EPHEMERAL)
          .forPath(layout.draining(self.name()), Json.write(self));
      log.info("node={} marked as draining", self.name());
    } catch (KeeperException.NodeExistsException e) {
      // already marked
    } catch (Exception e) {
      throw TermAllocator.failure("cannot mark " + self.name() + " as draining", e);
    }
  }

  /**
   * Removes {@code self}'s mark once it has left the membership, so a new process of the same name
   * is not taken for draining while this one's session lives on (a drained node that stays up).
   */
  public void unmark(Member self) {
    try {
      client.delete().forPath(layout.draining(self.name()));
    } catch (KeeperException.NoNodeException e) {
      // never marked, or gone with a session
    } catch (Exception e) {
      log.warn("node={} kept its drain mark; it goes with the session", self.name(), e);
    }
  }

  /** Whether {@code nodeName} carries a drain mark, as this node's cache shows it. */
  public boolean isDraining(String nodeName) {
    CuratorCache current = cache;
    return current != null && current.get(layout.draining(nodeName)).isPresent();
  }

  /** {@code live} minus the members being drained: whom fires may go to and stay with. */
  public LiveNodes excludingDraining(LiveNodes live) {
    return () -> live.current().stream().filter(name -> !isDraining(name)).toList();
  }

  private Optional<Member> member(ChildData node) {
    if (!node.getPath().startsWith(layout.draining() + "/") || node.getData() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Json.read(node.getData(), Member.class, node.getPath()));
    } catch (RuntimeException e) {
      log.warn("ignoring malformed drain mark {}", node.getPath(), e);
      return Optional.empty();
    }
  }

  /** Stops watching; a mark this process wrote goes with its session. Close twice is a no-op. */
  @Override
  public void close() {
    if (lifecycle.closeStarted()) {
      cache.close();
    }
  }
}
