package dev.kairos.coordinator.cluster;

import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.core.lifecycle.Lifecycle;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's ephemeral {@code members/<name>} znode, and the watched list of all members. The
 * znode is (re)created with the same {@link Member} (same incarnation) whenever this process's
 * session no longer owns it: after a session loss, on RECONNECTED and by a periodic check. A znode
 * of the same name left by an expired session of the same incarnation is replaced; one of another
 * incarnation is left to expire (logged and counted).
 */
public final class ZkMembership implements LiveNodes, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ZkMembership.class);

  private final CuratorFramework client;
  private final ZkLayout layout;
  private final Member self;
  private final long recheckMs;
  private final Lifecycle lifecycle = new Lifecycle("membership");
  private final List<MembershipListener> listeners = new CopyOnWriteArrayList<>();
  private final Counter registrations;
  private final Counter conflicts;
  private final Counter errors;
  private final ConnectionStateListener reconnect = this::connectionChanged;
  private CuratorCache cache;
  private ScheduledExecutorService executor;

  public ZkMembership(
      CuratorFramework client, ZkLayout layout, Member self, long recheckMs, MeterRegistry meters) {
    this.client = client;
    this.layout = layout;
    this.self = self;
    this.recheckMs = recheckMs;
    this.registrations = meters.counter("kairos.membership.registrations");
    this.conflicts = meters.counter("kairos.membership.conflicts");
    this.errors = meters.counter("kairos.membership.errors");
  }

  public Member self() {
    return self;
  }

  public void addListener(MembershipListener listener) {
    listeners.add(listener);
  }

  /** Registers this node and starts watching the members. */
  public void start() {
    lifecycle.start();
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "kairos-membership-" + self.name());
              thread.setDaemon(true);
              return thread;
            });
    ensureRegistered();
    cache = CuratorCache.build(client, layout.members());
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forCreates(
                    node -> member(node).ifPresent(m -> listeners.forEach(l -> l.joined(m))))
                .forDeletes(node -> member(node).ifPresent(m -> listeners.forEach(l -> l.left(m))))
                .build());
    cache.start();
    client.getConnectionStateListenable().addListener(reconnect);
    executor.scheduleWithFixedDelay(this::recheck, recheckMs, recheckMs, TimeUnit.MILLISECONDS);
  }

  /** Every member ZooKeeper shows right now, this one included once registered, by name. */
  public List<Member> members() {
    CuratorCache current = cache;
    if (current == null) {
      return List.of();
    }
    return current.stream()
        .map(this::member)
        .flatMap(java.util.Optional::stream)
        .sorted(Comparator.comparing(Member::name))
        .toList();
  }

  @Override
  public List<String> current() {
    return members().stream().map(Member::name).toList();
  }

  private java.util.Optional<Member> member(ChildData node) {
    if (!node.getPath().startsWith(layout.members() + "/") || node.getData() == null) {
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(Json.read(node.getData(), Member.class, node.getPath()));
    } catch (RuntimeException e) {
      log.warn("ignoring malformed member znode {}", node.getPath(), e);
      return java.util.Optional.empty();
    }
  }

  private void connectionChanged(CuratorFramework c, ConnectionState newState) {
    if (newState == ConnectionState.RECONNECTED && lifecycle.isStarted()) {
      executor.execute(this::recheck);
    }
  }

  private void recheck() {
    try {
      if (lifecycle.isStarted() && client.getZookeeperClient().isConnected()) {
        ensureRegistered();
      }
    } catch (RuntimeException e) {
      if (!lifecycle.isStarted()) {
        // close() interrupts a check in flight: that is the shutdown, not a ZooKeeper failure.
        log.debug("node={} membership check ended by close", self.name());
        return;
      }
      errors.increment();
      log.warn("node={} membership check failed; will keep running", self.name(), e);
    }
  }

  /** Makes sure the member znode exists and belongs to this session. */
  private void ensureRegistered() {
    String path = layout.member(self.name());
    try {
      long session = client.getZookeeperClient().getZooKeeper().getSessionId();
      Stat stat = new Stat();
      byte[] data;
      try {
        data = client.getData().storingStatIn(stat).forPath(path);
      } catch (KeeperException.NoNodeException e) {
        create(path);
        return;
      }
      if (stat.getEphemeralOwner() == session) {
        return;
      }
      Member other = Json.read(data, Member.class, path);
      if (!other.incarnation().equals(self.incarnation())) {
        conflicts.increment();
        log.warn(
            "node={} znode {} is held by incarnation {} (another process?); waiting for it to expire",
            self.name(),
            path,
            other.incarnation());
        return;
      }
      // Safety: our own old session's znode; the version guards against deleting a newer one.
      client.delete().withVersion(stat.getVersion()).forPath(path);
      create(path);
    } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException e) {
      log.debug("node={} membership znode changed under us; next check settles it", self.name());
    } catch (Exception e) {
      throw TermAllocator.failure("cannot register " + path, e);
    }
  }

  private void create(String path) throws Exception {
    client
        .create()
        .creatingParentContainersIfNeeded()
        .withMode(CreateMode.EPHEMERAL)
        .forPath(path, Json.write(self));
    registrations.increment();
    log.info("node={} registered as member (incarnation {})", self.name(), self.incarnation());
  }

  /** Stops watching and removes the member znode; close twice is a no-op. */
  @Override
  public void close() {
    Lifecycle.State previous = lifecycle.closeFrom();
    if (previous != Lifecycle.State.STARTED) {
      return;
    }
    client.getConnectionStateListenable().removeListener(reconnect);
    executor.shutdownNow();
    cache.close();
    try {
      String path = layout.member(self.name());
      Stat stat = client.checkExists().forPath(path);
      long session = client.getZookeeperClient().getZooKeeper().getSessionId();
      if (stat != null && stat.getEphemeralOwner() == session) {
        client.delete().withVersion(stat.getVersion()).forPath(path); // never another process's
      }
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      // already gone
    } catch (Exception e) {
      log.warn(
          "node={} could not delete its member znode; it expires with the session", self.name(), e);
    }
  }
}
