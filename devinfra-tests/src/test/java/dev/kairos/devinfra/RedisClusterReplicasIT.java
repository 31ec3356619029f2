package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The replicated kit: 3 masters with a replica each; kill -9 a master, its replica is promoted and
 * serves the acknowledged writes, and the old master restarted rejoins as the new master's replica.
 */
@RealInfra(redis = RedisMode.CLUSTER_WITH_REPLICAS)
class RedisClusterReplicasIT {

  @Test
  void aKilledMastersReplicaTakesOverWithTheReplicatedWrites(EmbeddedRedisCluster cluster) {
    assertThat(cluster.size()).isEqualTo(6);
    assertThat(cluster.masters()).isEqualTo(3);
    String key = "{replicas-" + UUID.randomUUID() + "}:k";
    int master = cluster.masterOwning(key);
    int replica = cluster.replicaOf(master);
    assertThat(replica).isNotEqualTo(master);

    RedisClusterClient client =
        RedisClusterClient.create(
            cluster.uris().stream()
                .map(RedisURI::create)
                .peek(u -> u.setTimeout(Duration.ofSeconds(1)))
                .toList());
    client.setOptions(
        ClusterClientOptions.builder()
            .topologyRefreshOptions(
                ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build())
            .build());
    try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
      connection.sync().set(key, "v1");
      // Acknowledged by the replica on the connection that wrote (WAIT counts that client's
      // writes).
      long acked =
          connection
              .getConnection("127.0.0.1", cluster.port(master))
              .sync()
              .waitForReplication(1, 2_000);
      assertThat(acked).isEqualTo(1);

      cluster.killNode(master);
      assertThat(cluster.isRunning(master)).isFalse();
      Duration took = cluster.awaitPromoted(replica, Duration.ofSeconds(30));
      assertThat(took).isLessThan(Duration.ofSeconds(30));
      assertThat(cluster.masterOwning(key)).isEqualTo(replica);

      Poll.until(
          Duration.ofSeconds(20),
          "the write to be read from the promoted replica",
          () -> {
            try {
              client.refreshPartitions();
              return "v1".equals(connection.sync().get(key));
            } catch (RuntimeException e) {
              return false;
            }
          });
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      cluster.restartNode(master);
    }
    assertThat(cluster.replicaOf(replica)).isEqualTo(master);
    assertThat(cluster.masterOwning(key)).isEqualTo(replica);
    // Whole again for the next user: a client connecting now, seeded with the restarted node first
    // (the one whose view changed last), sees it as a replica and writes to every master. A drill
    // once met READONLY here: its FLUSHALL went to the restarted node by a stale view.
    int restartedPort = cluster.port(master);
    RedisClusterClient fresh =
        RedisClusterClient.create(
            Stream.concat(Stream.of("redis://127.0.0.1:" + restartedPort), cluster.uris().stream())
                .map(RedisURI::create)
                .toList());
    try (StatefulRedisClusterConnection<String, String> connection = fresh.connect()) {
      RedisClusterNode restarted =
          connection.getPartitions().stream()
              .filter(n -> n.getUri().getPort() == restartedPort)
              .findFirst()
              .orElseThrow();
      assertThat(restarted.is(RedisClusterNode.NodeFlag.UPSTREAM))
          .as("the restarted node is a master in a fresh client's topology")
          .isFalse();
      assertThat(connection.sync().flushall()).isEqualTo("OK");
    } finally {
      fresh.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }
}
