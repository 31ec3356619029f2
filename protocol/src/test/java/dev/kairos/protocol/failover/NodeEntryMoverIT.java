package dev.kairos.protocol.failover;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.Claims;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.fence.StaleTermException;
import dev.kairos.protocol.wheel.NodeWheelStore;
import dev.kairos.protocol.wheel.WheelEntry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class NodeEntryMoverIT {

  private final EmbeddedRedisCluster cluster;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ClusterFixture fx;

  NodeEntryMoverIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 4);
  }

  @AfterEach
  void disconnect() {
    fx.close();
  }

  private JobDefinition job(String id) {
    JobDefinition job =
        JobDefinition.builder(id)
            .app("app")
            .handler("h")
            .fixedRate(1_000)
            .createdMs(T0)
            .scheduleVersion(1)
            .build();
    fx.putJob(job, T0);
    return job;
  }

  /** 30 fires on the dead node over all shards, 10 of them taken into its inflight set. */
  private Set<String> populateDeadNode() {
    Set<String> ids = new HashSet<>();
    for (int j = 0; j < 10; j++) {
      JobDefinition job = job("job-" + j);
      for (int k = 0; k < 3; k++) {
        Claims.claim(fx, 1, job, T0, T0 + k * 1_000L, "dead");
        ids.add(job.id() + ":" + (T0 + k * 1_000L));
      }
    }
    NodeWheelStore dead =
        new NodeWheelStore(fx.redis, fx.keys, "dead", 10_000, Duration.ofSeconds(5), meters);
    for (int shard = 0; shard < fx.keys.shards(); shard++) {
      dead.takeDue(shard, T0, 100, T0); // the fires at T0 go inflight
    }
    assertThat(fx.inflight("dead")).hasSize(10);
    return ids;
  }

  @Test
  void deadNodeWheelAndInflightMoveToLiveNodes() {
    Set<String> ids = populateDeadNode();
    Map<String, List<WheelEntry>> notified = new HashMap<>();
    NodeEntryMover mover =
        new NodeEntryMover(
            fx.redis,
            fx.keys,
            4, // small limit per call: forces several calls per shard
            10_000,
            (node, entries) ->
                notified.computeIfAbsent(node, n -> new ArrayList<>()).addAll(entries),
            meters);

    assertThat(mover.orphanedNodes(List.of("a", "b"))).containsExactly("dead");
    MoveReport report = mover.moveAll(1, "dead", List.of("a", "b"), T0 + 50);

    assertThat(report.movedCount()).isEqualTo(30);
    Set<String> moved = new HashSet<>(fx.wheel("a").keySet());
    moved.addAll(fx.wheel("b").keySet());
    assertThat(moved).isEqualTo(ids);
    assertThat(fx.wheel("a")).isNotEmpty();
    assertThat(fx.wheel("b")).isNotEmpty();
    assertThat(fx.wheel("dead")).isEmpty();
    assertThat(fx.inflight("dead")).isEmpty();
    for (String id : ids) {
      assertThat(fx.trigger(id).get("node")).isIn("a", "b");
      assertThat(fx.wheel(fx.trigger(id).get("node")))
          .containsEntry(id, new TriggerId(id).fireMs());
    }
    for (int shard = 0; shard < fx.keys.shards(); shard++) {
      assertThat(fx.redis.sync().smembers(RedisKeys.nodes(shard))).doesNotContain("dead");
    }
    assertThat(mover.orphanedNodes(List.of("a", "b"))).isEmpty();
    assertThat(notified.values().stream().mapToInt(List::size).sum()).isEqualTo(30);
  }

  @Test
  void staleEntriesAreDroppedInsteadOfMoved() {
    JobDefinition job = job("stale");
    Claims.claim(fx, 1, job, T0, T0, "dead");
    fx.putJob(job.toBuilder().enabled(false).scheduleVersion(2).build(), T0);

    MoveReport report =
        new NodeEntryMover(fx.redis, fx.keys, 100, 10_000, (n, e) -> {}, meters)
            .moveAll(1, "dead", List.of("a"), T0);

    assertThat(report.staleDropped()).isEqualTo(1);
    assertThat(report.movedCount()).isZero();
    assertThat(fx.wheel("a")).isEmpty();
    assertThat(fx.trigger("stale:" + T0)).containsEntry("state", "DROPPED_STALE");
  }

  @Test
  void aStaleLeaderCannotMoveEntries() {
    Set<String> ids = populateDeadNode();
    for (int shard = 0; shard < fx.keys.shards(); shard++) {
      fx.redis.sync().set(RedisKeys.fence(shard), "3");
    }
    NodeEntryMover mover = new NodeEntryMover(fx.redis, fx.keys, 100, 10_000, (n, e) -> {}, meters);

    assertThatThrownBy(() -> mover.moveAll(2, "dead", List.of("a"), T0))
        .isInstanceOfSatisfying(StaleTermException.class, e -> assertThat(e.fence()).isEqualTo(3));
    Set<String> still = new HashSet<>(fx.wheel("dead").keySet());
    still.addAll(fx.inflight("dead"));
    assertThat(still).isEqualTo(ids);
    assertThat(fx.wheel("a")).isEmpty();
    assertThat(meters.counter("kairos.fence.rejections", "op", "move").count()).isGreaterThan(0);
  }
}
