package dev.kairos.coordinator.cluster;

import static dev.kairos.protocol.ClusterFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.EmbeddedZooKeeper;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.fence.ShardFence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE)
class LeadershipIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  /** How often a state that must last is checked. */
  private static final Duration HOLD_STEP = Duration.ofMillis(10);

  private final EmbeddedZooKeeper zk;
  private final EmbeddedRedisCluster cluster;
  private final ZkLayout layout = new ZkLayout("/kairos-it/" + UUID.randomUUID());
  private final InProcessTransport transport = new InProcessTransport();
  private final List<TestNode> nodes = new ArrayList<>();
  private ClusterFixture fx;
  private ShardFence fence;

  LeadershipIT(EmbeddedZooKeeper zk, EmbeddedRedisCluster cluster) {
    this.zk = zk;
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 4);
    fence = new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5));
  }

  @AfterEach
  void close() {
    for (int i = nodes.size() - 1; i >= 0; i--) {
      nodes.get(i).close();
    }
    fx.close();
  }

  private TestNode node(String name) {
    TestNode node = new TestNode(name, zk.connectString(), layout, transport, fence::highestFence);
    nodes.add(node);
    return node.start();
  }

  private List<TestNode> three() {
    List<TestNode> three = List.of(node("n1"), node("n2"), node("n3"));
    await(WAIT, "three members", () -> three.get(0).membership.members().size() == 3);
    return three;
  }

  private List<TestNode> leaders(List<TestNode> among) {
    return among.stream().filter(n -> n.manager.isLeader()).toList();
  }

  private TestNode awaitOneLeader(List<TestNode> among) {
    await(WAIT, "exactly one leader among " + among.size(), () -> leaders(among).size() == 1);
    return leaders(among).get(0);
  }

  /** Every node agrees on the leader's term. */
  private void awaitAgreement(List<TestNode> among, long term) {
    await(
        WAIT,
        "every node to observe term " + term,
        () -> among.stream().allMatch(n -> n.manager.observedTerm() == term));
  }

  @Test
  void exactlyOneLeaderAmongThree() {
    List<TestNode> all = three();
    TestNode leader = awaitOneLeader(all);
    long term = leader.manager.leadingTerm();
    awaitAgreement(all, term);
    // Heartbeats keep it that way for several leader timeouts.
    Poll.holds(
        TestNode.LEADER_TIMEOUT.multipliedBy(4),
        HOLD_STEP,
        "the one leader keeps term " + term,
        () -> {
          assertThat(leaders(all)).containsExactly(leader);
          assertThat(leader.manager.leadingTerm()).isEqualTo(term);
        });
    assertThat(leader.edges).containsExactly("elected:" + term);
    assertThat(all.stream().mapToDouble(n -> n.counter("kairos.election.won")).sum()).isEqualTo(1);
  }

  @Test
  void aLeaderWhoseSessionExpiredIsReplacedByAHigherTerm() throws Exception {
    List<TestNode> all = three();
    TestNode old = awaitOneLeader(all);
    long term = old.manager.leadingTerm();

    old.expireSession();

    await(WAIT, "old leader revoked", () -> old.edges.contains("revoked:" + term));
    await(
        WAIT,
        "a leader of a higher term",
        () -> leaders(all).size() == 1 && leaders(all).get(0).manager.leadingTerm() > term);
    long next = leaders(all).get(0).manager.leadingTerm();
    awaitAgreement(all, next);
    await(WAIT, "old leader saw LOST", () -> old.sawConnectionState(ConnectionState.LOST));
  }

  @Test
  void aFollowerThatStopsHearingTheLeaderIsDeniedByTheOthers() {
    List<TestNode> all = three();
    TestNode leader = awaitOneLeader(all);
    long term = leader.manager.leadingTerm();
    awaitAgreement(all, term);
    TestNode cutOff = all.stream().filter(n -> n != leader).findFirst().orElseThrow();

    transport.blockHeartbeatsTo(cutOff.name);

    await(
        WAIT,
        "three denied confirmations of " + cutOff.name,
        () -> cutOff.counter("kairos.election.confirmations.denied") >= 3);
    assertThat(leaders(all)).containsExactly(leader);
    assertThat(leader.manager.leadingTerm()).isEqualTo(term);
    assertThat(all).allSatisfy(n -> assertThat(n.manager.observedTerm()).isEqualTo(term));
    assertThat(new TermAllocator(leader.client, layout, () -> 0).highestAllocated())
        .isEqualTo(term);

    transport.unblockHeartbeatsTo(cutOff.name);
  }

  @Test
  void aFollowerThatStopsAnsweringHeartbeatsIsDeclaredDeadWhileItsZnodeRemains() {
    List<TestNode> all = three();
    TestNode leader = awaitOneLeader(all);
    awaitAgreement(all, leader.manager.leadingTerm());
    TestNode silent = all.stream().filter(n -> n != leader).findFirst().orElseThrow();
    LiveNodes responsive = leader.manager.responsiveMembers();
    assertThat(responsive.current()).contains(silent.name);

    transport.blockHeartbeatsTo(silent.name);

    await(WAIT, silent.name + " declared dead", () -> !responsive.current().contains(silent.name));
    assertThat(leader.counter("kairos.cluster.followers.declared.dead")).isEqualTo(1);
    assertThat(leader.membership.current()).as("its znode is still there").contains(silent.name);
    assertThat(leaders(all))
        .as("no election: the others still hear the leader")
        .containsExactly(leader);

    transport.unblockHeartbeatsTo(silent.name);

    await(WAIT, silent.name + " answers again", () -> responsive.current().contains(silent.name));
  }

  @Test
  void aLeaderCutOffRedisStepsDownAndANodeThatReachesItLeads() {
    List<TestNode> all = three();
    TestNode cut = awaitOneLeader(all);
    long term = cut.manager.leadingTerm();

    cut.reachesRedis.set(false);

    await(WAIT, "the cut-off leader revoked", () -> cut.edges.contains("revoked:" + term));
    await(
        WAIT,
        "another node leads a higher term",
        () ->
            leaders(all).size() == 1
                && leaders(all).get(0) != cut
                && leaders(all).get(0).manager.leadingTerm() > term);
    TestNode next = leaders(all).get(0);
    awaitAgreement(all, next.manager.leadingTerm());
    await(WAIT, "the cut-off node abstains", () -> cut.counter("kairos.election.abstentions") == 1);
    assertThat(cut.edges)
        .as("never elected while cut off")
        .containsExactly("elected:" + term, "revoked:" + term);
    assertThat(
            cut.meters.counter("kairos.election.stepdowns", "reason", "redis-unreachable").count())
        .isEqualTo(1);

    // Reaching Redis again makes it a candidate again, not a challenger: the leader keeps leading.
    cut.reachesRedis.set(true);
    Poll.holds(
        TestNode.LEADER_TIMEOUT.multipliedBy(4),
        HOLD_STEP,
        "the leader keeps leading",
        () -> assertThat(leaders(all)).containsExactly(next));
  }

  @Test
  void aFollowerCutOffRedisIsDeclaredDeadUntilItReachesRedisAgain() {
    List<TestNode> all = three();
    TestNode leader = awaitOneLeader(all);
    long term = leader.manager.leadingTerm();
    awaitAgreement(all, term);
    TestNode cut = all.stream().filter(n -> n != leader).findFirst().orElseThrow();
    LiveNodes responsive = leader.manager.responsiveMembers();

    cut.reachesRedis.set(false);

    await(WAIT, cut.name + " declared dead", () -> !responsive.current().contains(cut.name));
    assertThat(leader.counter("kairos.cluster.followers.declared.dead")).isEqualTo(1);
    assertThat(leaders(all)).as("no election: it still hears the leader").containsExactly(leader);
    assertThat(cut.manager.observedTerm()).isEqualTo(term);

    cut.reachesRedis.set(true);

    await(WAIT, cut.name + " responsive again", () -> responsive.current().contains(cut.name));
    assertThat(leaders(all)).containsExactly(leader);
  }

  @Test
  void aSuspendedLeaderRevokesAtOnceBeforeItsSessionIsLost() {
    List<TestNode> all = three();
    TestNode leader = awaitOneLeader(all);
    long term = leader.manager.leadingTerm();

    zk.stop();
    try {
      await(
          Duration.ofSeconds(2),
          "onRevoked within 2 s of the server going away",
          () -> leader.edges.contains("revoked:" + term));
      assertThat(leader.sawConnectionState(ConnectionState.SUSPENDED)).isTrue();
      assertThat(leader.sawConnectionState(ConnectionState.LOST))
          .as("revoked before LOST")
          .isFalse();
      assertThat(leaders(all)).isEmpty();
    } finally {
      zk.restart();
    }
    await(
        WAIT,
        "a new leader of a higher term after ZooKeeper is back",
        () -> leaders(all).size() == 1 && leaders(all).get(0).manager.leadingTerm() > term);
  }

  @Test
  void aPausedTermWinnerIsNeverJoinedByASecondLeaderOfItsTerm() throws Exception {
    List<TestNode> all = three();
    TestNode leader = awaitOneLeader(all);
    long term = leader.manager.leadingTerm();
    // A paused node wins term+1 and never publishes itself: its session is gone.
    TestNode paused = new TestNode("paused", zk.connectString(), layout, transport, () -> 0);
    assertThat(new TermAllocator(paused.client, layout, () -> 0).tryClaim(term + 1, "paused"))
        .isTrue();
    paused.close();

    leader.expireSession();

    await(
        WAIT,
        "a leader above the paused winner's term",
        () -> leaders(all).size() == 1 && leaders(all).get(0).manager.leadingTerm() > term + 1);
    assertThat(all).allSatisfy(n -> assertThat(n.edges).doesNotContain("elected:" + (term + 1)));
  }

  @Test
  void theFirstTermAfterAWipedZooKeeperIsAboveTheRedisFences() {
    for (int shard = 0; shard < fx.keys.shards(); shard++) {
      fx.redis.sync().set(RedisKeys.fence(shard), "7");
    }
    List<TestNode> all = three(); // a fresh root: ZooKeeper knows no term
    TestNode leader = awaitOneLeader(all);
    assertThat(leader.manager.leadingTerm()).isEqualTo(8);
  }

  @Test
  void membershipReRegistersWithTheSameIncarnationAfterASessionLoss() throws Exception {
    TestNode n1 = node("n1");
    TestNode n2 = node("n2");
    await(WAIT, "two members", () -> n2.membership.members().size() == 2);
    String incarnation = n1.membership.self().incarnation();
    long session = n1.client.getZookeeperClient().getZooKeeper().getSessionId();

    n1.expireSession();

    await(
        WAIT,
        "n1 registered again by a new session",
        () -> {
          try {
            var stat = n2.client.checkExists().forPath(layout.member("n1"));
            return stat != null
                && stat.getEphemeralOwner() != session
                && stat.getEphemeralOwner()
                    == n1.client.getZookeeperClient().getZooKeeper().getSessionId();
          } catch (Exception e) {
            return false;
          }
        });
    await(
        WAIT,
        "n2 to see n1 again with the same incarnation",
        () ->
            n2.membership.members().stream()
                .anyMatch(m -> m.name().equals("n1") && m.incarnation().equals(incarnation)));
    assertThat(n2.membership.current()).containsExactly("n1", "n2");
    assertThat(n1.counter("kairos.membership.registrations")).isEqualTo(2);
  }

  @Test
  void startTwiceThrowsAndCloseTwiceIsANoOp() throws Exception {
    TestNode n1 = node("n1");
    awaitOneLeader(List.of(n1));
    long term = n1.manager.leadingTerm();

    assertThatThrownBy(n1.manager::start).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(n1.membership::start).isInstanceOf(IllegalStateException.class);
    n1.manager.close();
    n1.manager.close();

    assertThat(n1.manager.isLeader()).isFalse();
    assertThat(n1.edges).containsExactly("elected:" + term, "revoked:" + term);
    assertThat(n1.client.checkExists().forPath(layout.leader()))
        .as("a graceful stop deletes its leader znode")
        .isNull();
  }
}
