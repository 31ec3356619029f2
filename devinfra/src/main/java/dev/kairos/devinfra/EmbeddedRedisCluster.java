package dev.kairos.devinfra;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Redis Cluster of {@code masters} masters (no replicas) on loopback, formed before {@link
 * #start} returns: node i owns the slot range [i·16384/n, (i+1)·16384/n).
 *
 * <p>{@code cluster-require-full-coverage no}: while one master is stopped the others keep serving
 * their own slots, which is what fault tests want to observe. AOF is on, so a restarted node comes
 * back with its keys and (from nodes.conf) its identity and slots.
 *
 * <p>Layout under the given directory: {@code bin/redis-server}, {@code node-<i>/} with redis.conf,
 * redis.log, nodes.conf and the AOF of node i.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisCluster.class);

  private static final int SLOTS = SlotHash.SLOT_COUNT;
  private static final int BUS_PORT_OFFSET = 10_000;
  private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);
  private static final List<String> CLUSTER_CONFIG =
      List.of(
          "cluster-enabled yes",
          "cluster-config-file nodes.conf",
          "cluster-node-timeout 2000",
          "cluster-require-full-coverage no");

  private final Lifecycle lifecycle = new Lifecycle("redis cluster");
  private final List<RedisProcess> nodes;
  // Event loops for the admin connections (forming, health checks, FLUSHALL); one small set for
  // the cluster's lifetime instead of one per command.
  private final ClientResources resources =
      DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1).build();

  private EmbeddedRedisCluster(List<RedisProcess> nodes) {
    this.nodes = nodes;
  }

  /** Starts {@code masters} nodes under {@code dir} and forms the cluster. */
  public static EmbeddedRedisCluster start(Path dir, int masters) {
    if (masters < 1) {
      throw new IllegalArgumentException("a cluster needs at least one master, got " + masters);
    }
    long began = System.nanoTime();
    Path binary = RedisBinary.extractInto(dir.resolve("bin"));
    List<RedisProcess> nodes = new ArrayList<>();
    for (int i = 0; i < masters; i++) {
      int port = FreePorts.pickBlock(0, BUS_PORT_OFFSET);
      nodes.add(new RedisProcess(binary, dir.resolve("node-" + i), port, CLUSTER_CONFIG));
    }
    EmbeddedRedisCluster cluster = new EmbeddedRedisCluster(List.copyOf(nodes));
    cluster.lifecycle.markStarted();
    try {
      nodes.forEach(RedisProcess::start);
      cluster.form();
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    log.info(
        "redis cluster of {} masters started on {} in {} ms",
        masters,
        cluster.uris(),
        Millis.since(began));
    return cluster;
  }

  /** {@code redis://127.0.0.1:<port>} of every master, in node order. */
  public List<String> uris() {
    return nodes.stream().map(n -> "redis://127.0.0.1:" + n.port()).toList();
  }

  public int size() {
    return nodes.size();
  }

  public int port(int i) {
    return nodes.get(i).port();
  }

  /** The index of the master that owns the slot of {@code key} (hash tags respected). */
  public int nodeOwning(String key) {
    int slot = SlotHash.getSlot(key);
    return IntStream.range(0, size())
        .filter(i -> slot >= firstSlot(i, size()) && slot < firstSlot(i + 1, size()))
        .findFirst()
        .orElseThrow();
  }

  /** True while node i's process runs. */
  public boolean isRunning(int i) {
    return nodes.get(i).isRunning();
  }

  /** Stops master i (SIGTERM); its slots are unavailable until {@link #restartNode(int)}. */
  public void stopNode(int i) {
    lifecycle.requireStarted();
    nodes.get(i).stop();
    log.info("redis cluster node {} (127.0.0.1:{}) stopped", i, port(i));
  }

  /**
   * Starts master i again (same port, dir, node id and slots) and returns once every running node
   * sees the whole cluster healthy again.
   */
  public void restartNode(int i) {
    lifecycle.requireStarted();
    long began = System.nanoTime();
    RedisProcess node = nodes.get(i);
    node.stop();
    node.start();
    awaitHealthy();
    log.info("redis cluster node {} restarted in {} ms", i, Millis.since(began));
  }

  /** FLUSHALL on master i only: the keys of its slots are gone, the other masters keep theirs. */
  public void flushNode(int i) {
    lifecycle.requireStarted();
    withNode(i, c -> c.sync().flushall());
  }

  @Override
  public void close() {
    if (lifecycle.markClosed()) {
      nodes.forEach(RedisProcess::stop);
      resources.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }

  @Override
  public String toString() {
    return "EmbeddedRedisCluster" + uris();
  }

  private void form() {
    int n = size();
    for (int i = 0; i < n; i++) {
      int[] slots = IntStream.range(firstSlot(i, n), firstSlot(i + 1, n)).toArray();
      withNode(i, c -> c.sync().clusterAddSlots(slots));
    }
    for (int i = 1; i < n; i++) {
      int port = port(i);
      withNode(0, c -> c.sync().clusterMeet("127.0.0.1", port));
    }
    awaitHealthy();
  }

  /** Every running node reports state ok, all slots assigned and healthy, and knows every node. */
  private void awaitHealthy() {
    int n = size();
    Poll.until(
        FORM_TIMEOUT,
        "every Redis Cluster node to report cluster_state:ok and see " + n + " healthy nodes",
        () -> {
          for (int i = 0; i < n; i++) {
            if (!nodes.get(i).isRunning()) {
              continue;
            }
            String info = withNode(i, c -> c.sync().clusterInfo());
            boolean ok =
                info.contains("cluster_state:ok")
                    && info.contains("cluster_known_nodes:" + n + "\r")
                    && info.contains("cluster_slots_ok:" + SLOTS + "\r");
            String nodesView = withNode(i, c -> c.sync().clusterNodes());
            // A node flagged fail (or pfail) after a restart still blocks its slots for clients.
            if (!ok || nodesView.contains("fail")) {
              return false;
            }
          }
          return true;
        });
  }

  private <T> T withNode(int i, Function<StatefulRedisConnection<String, String>, T> action) {
    RedisURI uri = RedisURI.create("127.0.0.1", port(i));
    uri.setTimeout(Duration.ofSeconds(5));
    RedisClient client = RedisClient.create(resources, uri);
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      return action.apply(connection);
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  private static int firstSlot(int node, int nodes) {
    return node * SLOTS / nodes;
  }
}
