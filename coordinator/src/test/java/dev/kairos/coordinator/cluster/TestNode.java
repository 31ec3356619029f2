package dev.kairos.coordinator.cluster;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * One scheduler node's coordinator side for a test: its own Curator client (own session),
 * membership and leadership manager on the in-process transport, and a log of its leadership edges
 * and connection states.
 */
final class TestNode implements AutoCloseable {

  static final Duration HEARTBEAT = Duration.ofMillis(100);
  static final Duration LEADER_TIMEOUT = Duration.ofMillis(600);
  static final Duration SESSION = Duration.ofSeconds(3);
  static final ElectionConfig CONFIG =
      new ElectionConfig(HEARTBEAT, LEADER_TIMEOUT, SESSION, Duration.ofMillis(500));

  final String name;
  final CuratorFramework client;
  final ZkMembership membership;
  final LeadershipManager manager;
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  /** What the node's Redis reachability says; a test cuts it. */
  final AtomicBoolean reachesRedis = new AtomicBoolean(true);

  /** "elected:T", "revoked:T" in order. */
  final List<String> edges = new CopyOnWriteArrayList<>();

  final List<String> connectionStates = new CopyOnWriteArrayList<>();

  TestNode(
      String name,
      String connectString,
      ZkLayout layout,
      InProcessTransport transport,
      LongSupplier highestFence) {
    this.name = name;
    this.client =
        CuratorFrameworkFactory.builder()
            .connectString(connectString)
            .sessionTimeoutMs((int) SESSION.toMillis())
            .connectionTimeoutMs(1_000)
            .retryPolicy(new ExponentialBackoffRetry(100, 3))
            .build();
    client.getConnectionStateListenable().addListener((c, s) -> connectionStates.add(s.name()));
    client.start();
    this.membership =
        new ZkMembership(
            client, layout, Member.ofThisProcess(name, "in-process:" + name, 0), 200, meters);
    this.manager =
        new LeadershipManager(
            client,
            layout,
            membership,
            new TermAllocator(client, layout, highestFence),
            transport,
            CONFIG,
            System::nanoTime,
            reachesRedis::get,
            meters);
    manager.addListener(
        new LeadershipListener() {
          @Override
          public void onElected(long term) {
            edges.add("elected:" + term);
          }

          @Override
          public void onRevoked(long term) {
            edges.add("revoked:" + term);
          }
        });
    transport.register(name, manager);
  }

  TestNode start() {
    membership.start();
    manager.start();
    return this;
  }

  boolean sawConnectionState(ConnectionState state) {
    return connectionStates.contains(state.name());
  }

  void expireSession() throws Exception {
    client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
  }

  double counter(String name) {
    return meters.counter(name).count();
  }

  @Override
  public void close() {
    manager.close();
    membership.close();
    client.close();
  }
}
