package dev.kairos.coordinator.cluster;

import static dev.kairos.protocol.ClusterFixture.T0;
import static dev.kairos.protocol.ClusterFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.EmbeddedZooKeeper;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.protocol.Claims;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.failover.NodeEntryMover;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.wheel.WheelNotifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE)
class FailoverSweepIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private final EmbeddedZooKeeper zk;
  private final EmbeddedRedisCluster cluster;
  private final ZkLayout layout = new ZkLayout("/kairos-it/" + UUID.randomUUID());
  private final InProcessTransport transport = new InProcessTransport();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final java.util.Map<String, DrainMarks> marks = new java.util.HashMap<>();
  private ClusterFixture fx;
  private ShardFence fence;

  FailoverSweepIT(EmbeddedZooKeeper zk, EmbeddedRedisCluster cluster) {
    this.zk = zk;
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 4);
    fence = new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5));
  }

  @AfterEach
  void close() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
    fx.close();
  }

  /**
   * A node whose leader side sweeps every {@code sweepInterval}, on membership leaves and at
   * election.
   */
  private TestNode node(String name, Duration sweepInterval) {
    TestNode node = new TestNode(name, zk.connectString(), layout, transport, fence::highestFence);
    DrainMarks drainMarks = new DrainMarks(node.client, layout);
    marks.put(name, drainMarks);
    FailoverSweeper sweeper =
        new FailoverSweeper(
            name,
            new NodeEntryMover(fx.redis, fx.keys, 16, 10_000, WheelNotifier.NONE, node.meters),
            fence,
            drainMarks.excludingDraining(node.membership),
            System::currentTimeMillis,
            sweepInterval,
            node.manager::onStaleTerm,
            node.meters);
    node.manager.addListener(sweeper);
    node.membership.addListener(sweeper);
    drainMarks.addListener(sweeper);
    toClose.add(node);
    toClose.add(drainMarks);
    toClose.add(sweeper);
    drainMarks.start();
    sweeper.start();
    return node.start();
  }

  /**
   * {@code count} fires claimed onto {@code owner}'s wheel under {@code term}; their trigger ids.
   */
  private Set<String> claimOnto(String owner, long term, int count) {
    Set<String> ids = new HashSet<>();
    for (int j = 0; j < count; j++) {
      JobDefinition job =
          JobDefinition.builder(owner + "-job-" + j)
              .app("app")
              .handler("h")
              .fixedRate(1_000)
              .createdMs(T0)
              .scheduleVersion(1)
              .build();
      fx.putJob(job, T0);
      Claims.claim(fx, term, job, T0, T0 + j, owner);
      ids.add(job.id() + ":" + (T0 + j));
    }
    return ids;
  }

  private Set<String> wheelsOf(List<String> names) {
    Set<String> ids = new HashSet<>();
    names.forEach(n -> ids.addAll(fx.wheel(n).keySet()));
    return ids;
  }

  @Test
  void aNewLeaderMovesTheWheelOfANodeThatIsNotAMember() {
    Set<String> ids = claimOnto("gone", 1, 20); // a node that died before these nodes started

    List<TestNode> all =
        List.of(
            node("n1", Duration.ofMinutes(5)),
            node("n2", Duration.ofMinutes(5)),
            node("n3", Duration.ofMinutes(5)));

    await(WAIT, "the orphaned wheel emptied", () -> fx.wheel("gone").isEmpty());
    assertThat(wheelsOf(List.of("n1", "n2", "n3"))).containsAll(ids);
    for (String id : ids) {
      assertThat(fx.trigger(id).get("node")).isIn("n1", "n2", "n3");
    }
    TestNode leader = all.stream().filter(n -> n.manager.isLeader()).findFirst().orElseThrow();
    assertThat(leader.manager.leadingTerm()).isGreaterThan(1);
    assertThat(leader.counter("kairos.failover.nodes.swept")).isGreaterThanOrEqualTo(1);
  }

  @Test
  void aMemberWhoseZnodeVanishesHasItsWheelMovedToTheLiveMembers() {
    List<TestNode> all =
        List.of(
            node("n1", Duration.ofMinutes(5)),
            node("n2", Duration.ofMinutes(5)),
            node("n3", Duration.ofMinutes(5)));
    await(WAIT, "three members", () -> all.get(0).membership.members().size() == 3);
    await(WAIT, "a leader", () -> all.stream().anyMatch(n -> n.manager.isLeader()));
    TestNode leader = all.stream().filter(n -> n.manager.isLeader()).findFirst().orElseThrow();
    TestNode victim = all.stream().filter(n -> n != leader).findFirst().orElseThrow();
    await(
        WAIT,
        "the leader's first sweep (fences raised)",
        () -> leader.counter("kairos.failover.sweeps") >= 1);
    Set<String> ids = claimOnto(victim.name, leader.manager.leadingTerm(), 20);
    assertThat(fx.wheel(victim.name)).hasSize(20);

    victim.close(); // its member znode vanishes; only the leave event can trigger a sweep now

    List<String> live = all.stream().filter(n -> n != victim).map(n -> n.name).toList();
    await(WAIT, "the dead member's wheel emptied", () -> fx.wheel(victim.name).isEmpty());
    assertThat(wheelsOf(live)).containsAll(ids);
    for (String id : ids) {
      assertThat(fx.trigger(id).get("node")).isIn(live);
    }
    assertThat(leader.manager.isLeader()).isTrue();
  }

  @Test
  void aLeaderRejectedByAHigherFenceStepsDownAndTheNextTermIsAboveTheFence() {
    List<TestNode> all =
        List.of(
            node("n1", Duration.ofMinutes(5)),
            node("n2", Duration.ofMinutes(5)),
            node("n3", Duration.ofMinutes(5)));
    await(WAIT, "three members", () -> all.get(0).membership.members().size() == 3);
    await(WAIT, "a leader", () -> all.stream().anyMatch(n -> n.manager.isLeader()));
    TestNode leader = all.stream().filter(n -> n.manager.isLeader()).findFirst().orElseThrow();
    long term = leader.manager.leadingTerm();
    TestNode victim = all.stream().filter(n -> n != leader).findFirst().orElseThrow();
    await(WAIT, "the leader's first sweep", () -> leader.counter("kairos.failover.sweeps") >= 1);
    claimOnto(victim.name, term, 5);
    // A newer leader (a paused node's view of the world, or a partition) fenced every shard.
    fence.raiseAll(term + 5);

    victim.close(); // the leader's sweep now tries a move under its stale term

    await(WAIT, "the stale leader revoked", () -> leader.edges.contains("revoked:" + term));
    assertThat(leader.meters.counter("kairos.fence.rejections", "op", "move").count())
        .isGreaterThan(0);
    List<TestNode> live = all.stream().filter(n -> n != victim).toList();
    await(
        WAIT,
        "a leader above the fence",
        () -> live.stream().anyMatch(n -> n.manager.leadingTerm() > term + 5));
    await(
        WAIT,
        "the dead member's wheel moved by the new leader",
        () -> fx.wheel(victim.name).isEmpty());
  }

  @Test
  void aMemberMarkedDrainingHasItsWheelMovedWhileItStaysAMember() {
    List<TestNode> all =
        List.of(
            node("n1", Duration.ofMinutes(5)),
            node("n2", Duration.ofMinutes(5)),
            node("n3", Duration.ofMinutes(5)));
    await(WAIT, "three members", () -> all.get(0).membership.members().size() == 3);
    await(WAIT, "a leader", () -> all.stream().anyMatch(n -> n.manager.isLeader()));
    TestNode leader = all.stream().filter(n -> n.manager.isLeader()).findFirst().orElseThrow();
    TestNode leaving = all.stream().filter(n -> n != leader).findFirst().orElseThrow();
    await(WAIT, "the leader's first sweep", () -> leader.counter("kairos.failover.sweeps") >= 1);
    Set<String> ids = claimOnto(leaving.name, leader.manager.leadingTerm(), 20);

    // Only the mark's create event can trigger a sweep now (the periodic one is 5 minutes away).
    marks.get(leaving.name).mark(leaving.membership.self());

    List<String> live = all.stream().filter(n -> n != leaving).map(n -> n.name).toList();
    await(WAIT, "the draining member's wheel emptied", () -> fx.wheel(leaving.name).isEmpty());
    assertThat(wheelsOf(live)).containsAll(ids);
    for (String id : ids) {
      assertThat(fx.trigger(id).get("node")).isIn(live);
    }
    assertThat(leader.membership.current()).as("still a member").contains(leaving.name);
    assertThat(marks.get(leader.name).excludingDraining(leader.membership).current())
        .as("but no longer a live node for the leader")
        .containsExactlyInAnyOrderElementsOf(live);
    assertThat(leader.manager.isLeader()).isTrue();
  }
}
