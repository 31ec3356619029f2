package dev.kairos.coordinator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.EmbeddedZooKeeper;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.fence.ShardFence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER, zookeeper = ZkMode.STANDALONE)
class TermAllocatorIT {

  private final EmbeddedZooKeeper zk;
  private final EmbeddedRedisCluster cluster;
  private final ZkLayout layout = new ZkLayout("/kairos-it/" + UUID.randomUUID());
  private CuratorFramework a;
  private CuratorFramework b;
  private ClusterFixture fx;

  TermAllocatorIT(EmbeddedZooKeeper zk, EmbeddedRedisCluster cluster) {
    this.zk = zk;
    this.cluster = cluster;
  }

  private CuratorFramework client() throws InterruptedException {
    CuratorFramework client =
        CuratorFrameworkFactory.newClient(
            zk.connectString(), 3_000, 1_000, new ExponentialBackoffRetry(100, 3));
    client.start();
    assertThat(client.blockUntilConnected(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    return client;
  }

  @BeforeEach
  void connect() throws InterruptedException {
    a = client();
    b = client();
    fx = new ClusterFixture(cluster, 4);
  }

  @AfterEach
  void close() {
    fx.close();
    b.close();
    a.close();
  }

  @Test
  void twoCandidatesRacingForTheSameTermExactlyOneWins() throws Exception {
    TermAllocator first = new TermAllocator(a, layout, () -> 0);
    TermAllocator second = new TermAllocator(b, layout, () -> 0);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 100; round++) {
        long term = first.nextTerm();
        CyclicBarrier go = new CyclicBarrier(2);
        List<Future<Boolean>> wins = new ArrayList<>();
        wins.add(pool.submit(() -> race(go, first, term, "a")));
        wins.add(pool.submit(() -> race(go, second, term, "b")));
        int winners = (wins.get(0).get() ? 1 : 0) + (wins.get(1).get() ? 1 : 0);
        assertThat(winners).as("winners of term %d", term).isEqualTo(1);
        assertThat(first.owner(term)).isIn("a", "b");
        assertThat(second.highestAllocated()).isEqualTo(term);
      }
      assertThat(first.highestAllocated()).isEqualTo(100);
    } finally {
      pool.shutdownNow();
    }
  }

  private static boolean race(CyclicBarrier go, TermAllocator allocator, long term, String owner)
      throws Exception {
    go.await();
    return allocator.tryClaim(term, owner);
  }

  @Test
  void aWipedZooKeeperCannotHandOutATermBelowTheRedisFences() throws Exception {
    ShardFence fence = new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5));
    TermAllocator allocator = new TermAllocator(a, layout, fence::highestFence);
    for (long term = 1; term <= 3; term++) {
      assertThat(allocator.tryClaim(allocator.nextTerm(), "n")).isTrue();
    }
    fx.redis.sync().set(RedisKeys.fence(2), "7"); // a leader of term 7 wrote to shard 2

    a.delete().deletingChildrenIfNeeded().forPath(layout.root()); // ZooKeeper wiped

    assertThat(allocator.highestAllocated()).isZero();
    assertThat(allocator.nextTerm()).isEqualTo(8);
    assertThat(allocator.tryClaim(8, "n")).isTrue();
    assertThat(allocator.tryClaim(8, "m")).isFalse();
    assertThat(allocator.nextTerm()).isEqualTo(9);
  }

  @Test
  void prunedTermsAreGoneAndCanNeverBeClaimedAgain() throws Exception {
    TermAllocator terms = new TermAllocator(a, layout, () -> 0);
    int allocated = TermAllocator.RETAINED_TERMS + 20;
    for (long t = 1; t <= allocated; t++) {
      assertThat(terms.tryClaim(t, "a")).isTrue();
    }

    assertThat(terms.prune(allocated)).isEqualTo(20);

    assertThat(a.getChildren().forPath(layout.terms())).hasSize(TermAllocator.RETAINED_TERMS);
    assertThat(terms.highestAllocated()).isEqualTo(allocated);
    assertThat(terms.owner(20)).as("pruned").isNull();
    assertThat(new TermAllocator(b, layout, () -> 0).tryClaim(20, "b"))
        .as("a pruned term is never allocated again, even by a candidate that read it free")
        .isFalse();
    assertThat(terms.owner(20)).isNull();
    assertThat(terms.owner(21)).isEqualTo("a");
    assertThat(new TermAllocator(b, layout, () -> 0).tryClaim(allocated + 1, "b")).isTrue();
  }
}
