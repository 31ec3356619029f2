package dev.kairos.node.cluster.internal;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.coordinator.cluster.ClusterTransport;
import dev.kairos.coordinator.cluster.DrainMarks;
import dev.kairos.coordinator.cluster.ElectionConfig;
import dev.kairos.coordinator.cluster.FailoverSweeper;
import dev.kairos.coordinator.cluster.LeadershipManager;
import dev.kairos.coordinator.cluster.Member;
import dev.kairos.coordinator.cluster.RedisReachability;
import dev.kairos.coordinator.cluster.TermAllocator;
import dev.kairos.coordinator.cluster.ZkLayout;
import dev.kairos.coordinator.cluster.ZkMembership;
import dev.kairos.coordinator.pause.ClusterPause;
import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.coordinator.scan.ScanLoop;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.ShardReadiness;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.failover.NodeEntryMover;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.curator.framework.CuratorFramework;

/**
 * This node's membership in the cluster and, while it leads, its leader duties: ZooKeeper
 * membership, the leadership manager, a scan loop per term ({@link LeaderDuties}), the failover
 * sweeper and the drain marks (a member being drained is no live node: nothing is assigned to it
 * and the sweeper moves its wheel). Spring-free; starts and closes them in dependency order.
 */
final class ClusterNode implements AutoCloseable {

  /** Wiring of one node; see the fields' uses in the constructor. */
  record Wiring(
      CuratorFramework client,
      ZkLayout layout,
      Member self,
      ClusterTransport transport,
      ElectionConfig election,
      KairosRedis redis,
      RedisKeys keys,
      ScanConfig scan,
      KairosClock clock,
      WheelNotifier notifier,
      Duration redisTimeout,
      LongConsumer termObserved,
      ShardReadiness readiness,
      MeterRegistry meters) {}

  private static final int MOVE_LIMIT_PER_CALL = 500;

  private enum State {
    LATENT,
    STARTED,
    CLOSED
  }

  private final ZkMembership membership;
  private final DrainMarks drainMarks;
  private final RedisReachability reachability;
  private final LeadershipManager manager;
  private final LeaderDuties duties;
  private final FailoverSweeper sweeper;
  private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);

  ClusterNode(Wiring w) {
    long recheckMs = Math.max(100, w.election().heartbeatInterval().toMillis() * 2);
    this.membership = new ZkMembership(w.client(), w.layout(), w.self(), recheckMs, w.meters());
    this.drainMarks = new DrainMarks(w.client(), w.layout());
    ShardFence fence = new ShardFence(w.redis(), w.keys(), w.redisTimeout());
    ClusterPause pause = new ClusterPause(w.redis(), w.clock());
    this.reachability =
        new RedisReachability(
            w.redis(),
            w.election().heartbeatInterval(),
            w.election().leaderTimeout(),
            w.self().name(),
            System::nanoTime);
    this.manager =
        new LeadershipManager(
            w.client(),
            w.layout(),
            membership,
            new TermAllocator(w.client(), w.layout(), fence::highestFence),
            w.transport(),
            w.election(),
            System::nanoTime,
            reachability,
            w.meters());
    LiveNodes live = drainMarks.excludingDraining(manager.responsiveMembers());
    DueFireScanner scanner =
        new DueFireScanner(
            w.redis(),
            w.keys(),
            w.scan(),
            w.clock(),
            live,
            new ConsistentHashAssigner(),
            w.notifier(),
            new FireWindow(),
            w.readiness(),
            w.meters());
    this.duties =
        new LeaderDuties(
            term ->
                new ScanLoop(
                    term,
                    fence,
                    scanner,
                    w.scan().interval(),
                    manager::onStaleTerm,
                    pause::isPaused,
                    w.meters(),
                    w.clock()::nowMs),
            w.termObserved()::accept);
    NodeEntryMover mover =
        new NodeEntryMover(
            w.redis(),
            w.keys(),
            MOVE_LIMIT_PER_CALL,
            w.scan().eventsMaxLen(),
            w.notifier(),
            w.meters());
    this.sweeper =
        new FailoverSweeper(
            w.self().name(),
            mover,
            fence,
            live,
            w.clock(),
            w.election().sweepInterval(),
            manager::onStaleTerm,
            w.meters());
    manager.addListener(duties);
    manager.addListener(sweeper);
    membership.addListener(sweeper);
    drainMarks.addListener(sweeper);
    Gauge.builder("kairos.cluster.term", manager, LeadershipManager::observedTerm)
        .description("the highest leader term this node has seen")
        .register(w.meters());
    Gauge.builder("kairos.cluster.members", membership, m -> m.members().size())
        .description("members ZooKeeper shows; 2 means failover waits for the session timeout")
        .register(w.meters());
    Gauge.builder("kairos.cluster.leader", manager, m -> m.isLeader() ? 1 : 0)
        .description("1 while this node leads, else 0")
        .register(w.meters());
  }

  void start() {
    if (!state.compareAndSet(State.LATENT, State.STARTED)) {
      throw new IllegalStateException("cluster node is " + state.get());
    }
    membership.start();
    drainMarks.start();
    sweeper.start();
    reachability.start();
    manager.start();
  }

  LeadershipManager manager() {
    return manager;
  }

  ZkMembership membership() {
    return membership;
  }

  LeaderDuties duties() {
    return duties;
  }

  DrainMarks drainMarks() {
    return drainMarks;
  }

  /**
   * Stops standing for election; a leader steps down and deletes its leader znode so the others
   * elect at once. The node stays a member (it answers heartbeats) until {@link #close()}.
   */
  void resign() {
    manager.close();
  }

  /** Steps down (closing the scan loop), stops sweeping, leaves the membership. */
  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) != State.STARTED) {
      return;
    }
    manager.close();
    reachability.close();
    duties.close();
    sweeper.close();
    drainMarks.close();
    membership.close();
  }
}
