package dev.kairos.core.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * WAIT against a real cluster with replicas: it reaches the master of the written slot on the
 * connection that wrote (a frozen replica makes it come back short, which a WAIT on a fresh
 * connection would not), a shortfall proceeds, and the master is left alone for the back-off.
 */
@RealInfra(redis = RedisMode.CLUSTER_WITH_REPLICAS)
class ReplicaWaitIT {

  @Test
  void waitCountsTheWritingConnectionsReplicaAndBacksOffWhenItIsFrozen(
      EmbeddedRedisCluster cluster) {
    String key = "{wait-" + UUID.randomUUID() + "}:k";
    try (KairosRedis redis =
        KairosRedis.connect(
            cluster.uris(),
            true,
            Duration.ofSeconds(2),
            new ReplicaWait.Policy(1, Duration.ofMillis(200)))) {
      ReplicaWait wait = redis.replicaWait();
      redis.sync().set(key, "1");
      assertThat(wait.afterWrite(key).toCompletableFuture().join())
          .isEqualTo(ReplicaWait.Ack.ACKNOWLEDGED);
      assertThat(wait.unacknowledged()).isZero();

      int replica = cluster.replicaOf(cluster.masterOwning(key));
      cluster.pauseNode(replica);
      try {
        redis.sync().set(key, "2");
        long began = System.nanoTime();
        assertThat(wait.afterWrite(key).toCompletableFuture().join())
            .isEqualTo(ReplicaWait.Ack.UNACKNOWLEDGED);
        assertThat(Duration.ofNanos(System.nanoTime() - began))
            .isGreaterThanOrEqualTo(Duration.ofMillis(190));
        // In the back-off the next claim write does not wait for the frozen replica.
        redis.sync().set(key, "3");
        began = System.nanoTime();
        assertThat(wait.afterWrite(key).toCompletableFuture().join())
            .isEqualTo(ReplicaWait.Ack.UNACKNOWLEDGED);
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofMillis(100));
        assertThat(wait.unacknowledged()).isEqualTo(2);
        assertThat(wait.waits()).isEqualTo(2);
      } finally {
        cluster.resumeNode(replica);
      }
    }
  }

  @Test
  void offSendsNothing(EmbeddedRedisCluster cluster) {
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(2))) {
      assertThat(redis.replicaWait().afterWrite("{x}").toCompletableFuture().join())
          .isEqualTo(ReplicaWait.Ack.ACKNOWLEDGED);
      assertThat(redis.replicaWait().waits()).isZero();
    }
  }

  @Test
  void aWaitTimeoutNotShorterThanTheCommandTimeoutIsRefused(EmbeddedRedisCluster cluster) {
    assertThatThrownBy(
            () ->
                KairosRedis.connect(
                    List.copyOf(cluster.uris()),
                    true,
                    Duration.ofSeconds(1),
                    new ReplicaWait.Policy(1, Duration.ofSeconds(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wait-timeout");
  }
}
