package dev.kairos.protocol.wheel;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.Claims;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.failover.NodeEntryMover;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node side of the open-trigger index ({@link RedisKeys#openTriggers}): a trigger enters when
 * it becomes DISPATCHED and leaves whenever a node script makes it final.
 */
@RealInfra(redis = RedisMode.CLUSTER)
class OpenTriggerIndexIT {

  private final EmbeddedRedisCluster cluster;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ClusterFixture fx;
  private NodeWheelStore node;

  OpenTriggerIndexIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 4);
    node = new NodeWheelStore(fx.redis, fx.keys, "node-a", 10_000, Duration.ofSeconds(5), meters);
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
        .createdMs(T0)
        .scheduleVersion(1)
        .build();
  }

  /** Claims, takes and acknowledges T0 of a new job: the trigger is DISPATCHED at T0 + 5. */
  private int dispatched(String jobId) {
    JobDefinition job = job(jobId);
    fx.putJob(job, T0);
    Claims.claim(fx, 1, job, T0, T0, "node-a");
    int shard = fx.keys.shardOf(jobId);
    node.takeDue(shard, T0, 100, T0);
    assertThat(node.ackDispatched(shard, jobId + ":" + T0, "2", T0 + 5)).isTrue();
    return shard;
  }

  private Double openScore(int shard, String triggerId) {
    return fx.redis.sync().zscore(RedisKeys.openTriggers(shard), triggerId);
  }

  @Test
  void aDispatchedTriggerEntersTheIndexAtItsDispatchTime() {
    int shard = dispatched("a");
    assertThat(openScore(shard, "a:" + T0)).isEqualTo((double) (T0 + 5));

    // A claimed trigger that was never acknowledged is not open (the inflight sweeper owns it).
    Claims.claim(fx, 1, job("a"), T0, T0 + 1_000, "node-a");
    assertThat(openScore(shard, "a:" + (T0 + 1_000))).isNull();
  }

  @Test
  void aReSentTriggerEndingNoExecutorLeavesTheIndex() {
    int shard = dispatched("n");
    // The inflight sweeper's re-send put it back in flight; this time no executor is live.
    fx.redis.sync().zadd(RedisKeys.inflight(shard, "node-a"), T0 + 10, "n:" + T0);

    assertThat(node.recordNoExecutor(shard, "n:" + T0, "n", "no live executor", T0 + 20)).isTrue();
    assertThat(fx.trigger("n:" + T0)).containsEntry("state", "NO_EXECUTOR");
    assertThat(openScore(shard, "n:" + T0)).isNull();
  }

  @Test
  void aReSentTriggerDroppedAsStaleLeavesTheIndex() {
    int shard = dispatched("s");
    fx.redis.sync().zadd(RedisKeys.wheel(shard, "node-a"), T0, "s:" + T0); // requeued
    fx.deleteJob("s");

    assertThat(node.takeDue(shard, T0, 100, T0 + 30).staleDropped()).isEqualTo(1);
    assertThat(fx.trigger("s:" + T0)).containsEntry("state", "DROPPED_STALE");
    assertThat(openScore(shard, "s:" + T0)).isNull();
  }

  @Test
  void aMovedTriggerDroppedAsStaleLeavesTheIndex() {
    int shard = dispatched("m");
    fx.redis.sync().zadd(RedisKeys.inflight(shard, "node-a"), T0 + 10, "m:" + T0); // re-sending
    fx.deleteJob("m");

    new NodeEntryMover(fx.redis, fx.keys, 100, 10_000, WheelNotifier.NONE, meters)
        .moveAll(1, "node-a", List.of("node-b"), T0 + 40);

    assertThat(fx.trigger("m:" + T0)).containsEntry("state", "DROPPED_STALE");
    assertThat(openScore(shard, "m:" + T0)).isNull();
  }
}
