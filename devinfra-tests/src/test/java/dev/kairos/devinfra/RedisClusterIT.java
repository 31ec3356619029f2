package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class RedisClusterIT {

  private final EmbeddedRedisCluster cluster;
  private RedisClusterClient client;
  private StatefulRedisClusterConnection<String, String> connection;
  private RedisAdvancedClusterCommands<String, String> redis;

  RedisClusterIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    client = RedisClusterClient.create(cluster.uris().stream().map(RedisURI::create).toList());
    connection = client.connect();
    redis = connection.sync();
  }

  @AfterEach
  void disconnect() {
    connection.close();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }

  @Test
  void clusterHasThreeMastersCoveringAllSlots() {
    assertThat(cluster.size()).isEqualTo(3);
    String info = redis.clusterInfo();
    assertThat(info).contains("cluster_state:ok", "cluster_slots_ok:16384", "cluster_size:3");
  }

  @Test
  void hashTaggedKeysAreUpdatedTogetherByOneScriptCalledBySha() throws IOException {
    String tag = "{job-" + UUID.randomUUID() + "}";
    String counter = "kairos:" + tag + ":counter";
    String index = "kairos:" + tag + ":index";
    String sha = redis.scriptLoad(script("lua/add_and_index.lua"));

    Long first = redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {counter, index}, "5");
    Long second = redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {counter, index}, "7");

    assertThat(first).isEqualTo(5L);
    assertThat(second).isEqualTo(12L);
    assertThat(redis.get(counter)).isEqualTo("12");
    assertThat(redis.zscore(index, "total")).isEqualTo(12.0);
  }

  @Test
  void scriptTouchingKeysWithDifferentHashTagsFailsWithCrossSlot() throws IOException {
    String a = "kairos:{a}:counter";
    String b = "kairos:{b}:index";
    assertThat(SlotHash.getSlot(a)).isNotEqualTo(SlotHash.getSlot(b));
    String sha = redis.scriptLoad(script("lua/add_and_index.lua"));

    assertThatThrownBy(() -> redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {a, b}, "1"))
        .isInstanceOf(RedisCommandExecutionException.class)
        .hasMessageContaining("CROSSSLOT");
  }

  @Test
  void keyIsServedOnlyByTheMasterThatOwnsItsSlot() {
    String key = "kairos:{owner-" + UUID.randomUUID() + "}:job";
    redis.set(key, "v1");
    int owner = cluster.nodeOwning(key);
    int other = (owner + 1) % cluster.size();

    withNode(owner, node -> assertThat(node.sync().get(key)).isEqualTo("v1"));
    withNode(
        other,
        node ->
            assertThatThrownBy(() -> node.sync().get(key))
                .isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageContaining("MOVED " + SlotHash.getSlot(key))
                .hasMessageContaining("127.0.0.1:" + cluster.port(owner)));
  }

  @Test
  void stoppedNodeRefusesConnectionsAndComesBackWithItsKeys() {
    String key = "kairos:{restart-" + UUID.randomUUID() + "}:job";
    redis.set(key, "kept");
    int owner = cluster.nodeOwning(key);

    cluster.stopNode(owner);
    try {
      assertThat(cluster.isRunning(owner)).isFalse();
      RedisClient direct = RedisClient.create(RedisURI.create("127.0.0.1", cluster.port(owner)));
      try {
        assertThatThrownBy(direct::connect).isInstanceOf(RedisConnectionException.class);
      } finally {
        direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      }
    } finally {
      cluster.restartNode(owner);
    }

    withNode(owner, node -> assertThat(node.sync().get(key)).isEqualTo("kept"));
  }

  @Test
  void flushNodeEmptiesOnlyThatMaster() {
    String prefix = "kairos:{flush-" + UUID.randomUUID();
    List<String> keys =
        List.of(prefix + "-a}:k", prefix + "-b}:k", prefix + "-c}:k", prefix + "-d}:k");
    keys.forEach(k -> redis.set(k, "x"));
    String victim = keys.get(0);
    int flushed = cluster.nodeOwning(victim);

    cluster.flushNode(flushed);

    for (String key : keys) {
      withNode(
          cluster.nodeOwning(key),
          node -> {
            String expected = cluster.nodeOwning(key) == flushed ? null : "x";
            assertThat(node.sync().get(key)).as(key).isEqualTo(expected);
          });
    }
  }

  private void withNode(int i, Consumer<StatefulRedisConnection<String, String>> action) {
    RedisClient direct = RedisClient.create(RedisURI.create("127.0.0.1", cluster.port(i)));
    try (StatefulRedisConnection<String, String> node = direct.connect()) {
      action.accept(node);
    } finally {
      direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  private static String script(String resource) throws IOException {
    try (InputStream in = RedisClusterIT.class.getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
