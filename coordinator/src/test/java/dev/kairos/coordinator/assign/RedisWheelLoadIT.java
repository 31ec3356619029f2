package dev.kairos.coordinator.assign;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.Claims;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link RedisWheelLoad} over wheels written by the real claim and take scripts. */
@RealInfra(redis = RedisMode.CLUSTER)
class RedisWheelLoadIT {

  private final EmbeddedRedisCluster cluster;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ClusterFixture fx;
  private NodeWheelStore nodeA;

  RedisWheelLoadIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 4);
    nodeA = new NodeWheelStore(fx.redis, fx.keys, "node-a", 10_000, Duration.ofSeconds(5), meters);
  }

  @AfterEach
  void disconnect() {
    fx.close();
  }

  private static JobDefinition job(String id) {
    return JobDefinition.builder(id)
        .app("billing")
        .handler("invoice")
        .fixedRate(1_000)
        .params("{\"v\":1}")
        .routing(RoutingStrategy.ROUND)
        .block(BlockStrategy.DISCARD_LATER)
        .timeoutMs(30_000)
        .createdMs(T0)
        .scheduleVersion(1)
        .build();
  }

  private JobDefinition claimed(String id, long fireMs, String node) {
    JobDefinition job = job(id);
    fx.putJob(job, T0);
    Claims.claim(fx, 1, job, T0, fireMs, node);
    return job;
  }

  private int shard(String jobId) {
    return fx.keys.shardOf(jobId);
  }

  @Test
  void wheelLoadCountsWheelAndInflightEntriesPerNode() {
    claimed("w1", T0, "node-a");
    claimed("w2", T0 + 1_000, "node-a");
    claimed("w3", T0, "node-b");
    nodeA.takeDue(shard("w1"), T0, 100, T0); // one of node-a's entries goes inflight

    assertThat(
            new RedisWheelLoad(fx.redis, fx.keys, Duration.ofSeconds(5))
                .entriesPerNode(List.of("node-a", "node-b", "node-c")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("node-a", 2L, "node-b", 1L, "node-c", 0L));
  }
}
