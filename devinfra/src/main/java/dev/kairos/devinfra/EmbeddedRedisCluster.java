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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Redis Cluster of {@code masters} masters, each with {@code replicasPerMaster} replicas, on
 * loopback, formed before {@link #start} returns: node i &lt; masters owns the slot range
 * [i·16384/n, (i+1)·16384/n); node {@code masters + r·masters + i} starts as a replica of master i.
 * Node indexes name processes, not roles: after a failover ({@link #killNode}, {@link
 * #awaitPromoted}) a replica's index serves as a master and a restarted old master rejoins as its
 * replica. {@link #masterOwning} and {@link #replicaOf} read the current roles from the cluster.
 *
 * <p>{@code cluster-require-full-coverage no}: while one master is stopped the others keep serving
 * their own slots, which is what fault tests want to observe. AOF is on ({@code appendfsync} as
 * given, {@code everysec} by default), so a restarted node comes back with its keys and (from
 * nodes.conf) its identity and slots.
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
  private final int masters;
  // Event loops for the admin connections (forming, health checks, FLUSHALL); one small set for
  // the cluster's lifetime instead of one per command.
  private final ClientResources resources =
      DefaultClientResources.builder().ioThreadPoolSize(1).computationThreadPoolSize(1).build();

  private EmbeddedRedisCluster(List<RedisProcess> nodes, int masters) {
    this.nodes = nodes;
    this.masters = masters;
  }

  /** Starts {@code masters} nodes (no replicas) under {@code dir} and forms the cluster. */
  public static EmbeddedRedisCluster start(Path dir, int masters) {
    return start(dir, masters, 0, "everysec");
  }

  /**
   * Starts {@code masters} masters and {@code replicasPerMaster} replicas of each under {@code
   * dir}, all with {@code appendfsync <appendFsync>} ({@code everysec}, {@code always}, {@code
   * no}), and forms the cluster; returns once every replica's link to its master is up.
   */
  public static EmbeddedRedisCluster start(
      Path dir, int masters, int replicasPerMaster, String appendFsync) {
    if (masters < 1) {
      throw new IllegalArgumentException("a cluster needs at least one master, got " + masters);
    }
    if (replicasPerMaster < 0) {
      throw new IllegalArgumentException("replicas per master must be >= 0: " + replicasPerMaster);
    }
    if (!List.of("everysec", "always", "no").contains(appendFsync)) {
      throw new IllegalArgumentException("appendfsync must be everysec, always or no");
    }
    long began = System.nanoTime();
    Path binary = RedisBinary.extractInto(dir.resolve("bin"));
    List<String> config = new ArrayList<>(CLUSTER_CONFIG);
    config.add("appendfsync " + appendFsync);
    List<RedisProcess> nodes = new ArrayList<>();
    for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
      int port = FreePorts.pickBlock(0, BUS_PORT_OFFSET);
      nodes.add(new RedisProcess(binary, dir.resolve("node-" + i), port, config));
    }
    EmbeddedRedisCluster cluster = new EmbeddedRedisCluster(List.copyOf(nodes), masters);
    cluster.lifecycle.markStarted();
    try {
      nodes.forEach(RedisProcess::start);
      cluster.form();
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    log.info(
        "redis cluster of {} masters and {} replicas each started on {} in {} ms",
        masters,
        replicasPerMaster,
        cluster.uris(),
        Millis.since(began));
    return cluster;
  }

  /** {@code redis://127.0.0.1:<port>} of every node (masters first), in node order. */
  public List<String> uris() {
    return nodes.stream().map(n -> "redis://127.0.0.1:" + n.port()).toList();
  }

  /** Every node, masters and replicas. */
  public int size() {
    return nodes.size();
  }

  /** Masters the cluster was formed with (nodes 0 .. masters-1 at start). */
  public int masters() {
    return masters;
  }

  public int port(int i) {
    return nodes.get(i).port();
  }

  /**
   * The index of the node that owned the slot of {@code key} (hash tags respected) when the cluster
   * was formed; {@link #masterOwning} after a failover.
   */
  public int nodeOwning(String key) {
    int slot = SlotHash.getSlot(key);
    return IntStream.range(0, masters)
        .filter(i -> slot >= firstSlot(i, masters) && slot < firstSlot(i + 1, masters))
        .findFirst()
        .orElseThrow();
  }

  /** The index of the node serving {@code key}'s slot as master now, as the cluster reports it. */
  public int masterOwning(String key) {
    int slot = SlotHash.getSlot(key);
    for (ClusterNodeLine line : clusterNodes()) {
      if (line.isMaster() && !line.failed() && line.owns(slot)) {
        return indexOfPort(line.port());
      }
    }
    throw new IllegalStateException("no live master serves slot " + slot + " of " + key);
  }

  /**
   * The index of a replica of master {@code master} whose link is up, as the master itself reports
   * it ({@code INFO replication}; other nodes learn of a new replica by gossip, later).
   */
  public int replicaOf(int master) {
    String replication = withNode(master, c -> c.sync().info("replication"));
    for (String line : replication.split("\r?\n")) {
      // slave0:ip=127.0.0.1,port=20431,state=online,offset=123,lag=0
      if (line.startsWith("slave") && line.contains("state=online")) {
        String port = line.replaceAll(".*port=(\\d+).*", "$1");
        return indexOfPort(Integer.parseInt(port));
      }
    }
    throw new IllegalStateException("master " + master + " has no replica online");
  }

  /** SIGKILL node i: no AOF fsync, no goodbye to the cluster bus, as a crashed host. */
  public void killNode(int i) {
    lifecycle.requireStarted();
    nodes.get(i).kill();
    log.info("redis cluster node {} (127.0.0.1:{}) killed (SIGKILL)", i, port(i));
  }

  /** SIGSTOP node i: it keeps its connections but answers nothing (a frozen host). */
  public void pauseNode(int i) {
    lifecycle.requireStarted();
    nodes.get(i).signal("STOP");
  }

  /** SIGCONT node i after {@link #pauseNode}. */
  public void resumeNode(int i) {
    lifecycle.requireStarted();
    nodes.get(i).signal("CONT");
  }

  /**
   * Waits until node {@code replica} serves as a master with slots and reports the cluster ok (the
   * replica's own failover after its master's {@code cluster-node-timeout}); returns the time it
   * took.
   */
  public Duration awaitPromoted(int replica, Duration deadline) {
    long began = System.nanoTime();
    Poll.until(
        deadline,
        "redis cluster node " + replica + " to be promoted to master",
        () -> {
          String role = withNode(replica, c -> c.sync().info("replication"));
          String info = withNode(replica, c -> c.sync().clusterInfo());
          return role.contains("role:master")
              && info.contains("cluster_state:ok")
              && clusterNodes().stream()
                  .anyMatch(l -> l.port() == port(replica) && l.isMaster() && l.hasSlots());
        });
    Duration took = Duration.ofNanos(System.nanoTime() - began);
    log.info("redis cluster node {} promoted to master after {} ms", replica, took.toMillis());
    return took;
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
    for (int i = 0; i < masters; i++) {
      int[] slots = IntStream.range(firstSlot(i, masters), firstSlot(i + 1, masters)).toArray();
      withNode(i, c -> c.sync().clusterAddSlots(slots));
    }
    for (int i = 1; i < size(); i++) {
      int port = port(i);
      withNode(0, c -> c.sync().clusterMeet("127.0.0.1", port));
    }
    if (size() > masters) {
      // A replica can follow a master only once it has learned the master's id by gossip.
      Poll.until(
          FORM_TIMEOUT,
          "every Redis Cluster node to know all " + size() + " nodes",
          () ->
              IntStream.range(0, size())
                  .allMatch(
                      i ->
                          withNode(i, c -> c.sync().clusterInfo())
                              .contains("cluster_known_nodes:" + size() + "\r")));
      for (int i = masters; i < size(); i++) {
        String masterId = withNode(i % masters, c -> c.sync().clusterMyId());
        withNode(i, c -> c.sync().clusterReplicate(masterId));
      }
    }
    awaitHealthy();
  }

  /** CLUSTER NODES as a running node sees it. */
  private List<ClusterNodeLine> clusterNodes() {
    int any =
        IntStream.range(0, size())
            .filter(this::isRunning)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no redis cluster node runs"));
    return ClusterNodeLine.parse(withNode(any, c -> c.sync().clusterNodes()));
  }

  private int indexOfPort(int port) {
    return IntStream.range(0, size())
        .filter(i -> port(i) == port)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no node on port " + port));
  }

  /**
   * Every running node reports state ok, all slots assigned and healthy, knows every node, and all
   * of them agree on who is master of which slots, each node's own role included. Without the last
   * check a client that loads the topology from a node that has not yet learned of a restarted
   * master's demotion sends it writes as a master, and gets READONLY.
   */
  private void awaitHealthy() {
    int n = size();
    Poll.until(
        FORM_TIMEOUT,
        "every Redis Cluster node to report cluster_state:ok, see "
            + n
            + " healthy nodes and agree on the roles",
        () -> {
          Map<Integer, String> agreed = null;
          for (int i = 0; i < n; i++) {
            if (!nodes.get(i).isRunning()) {
              continue;
            }
            String info = withNode(i, c -> c.sync().clusterInfo());
            String replication = withNode(i, c -> c.sync().info("replication"));
            // A replica still syncing from its master would lose writes on an immediate failover.
            boolean linked =
                !replication.contains("role:slave")
                    || replication.contains("master_link_status:up");
            boolean ok =
                linked
                    && info.contains("cluster_state:ok")
                    && info.contains("cluster_known_nodes:" + n + "\r")
                    && info.contains("cluster_slots_ok:" + SLOTS + "\r");
            String nodesView = withNode(i, c -> c.sync().clusterNodes());
            // A node flagged fail (or pfail) after a restart still blocks its slots for clients.
            if (!ok || nodesView.contains("fail")) {
              return false;
            }
            Map<Integer, String> roles = roles(ClusterNodeLine.parse(nodesView));
            String self = roles.get(port(i));
            if (self == null
                || self.startsWith("master") != replication.contains("role:master")
                || (agreed != null && !agreed.equals(roles))) {
              return false;
            }
            agreed = roles;
          }
          return true;
        });
  }

  /** Port → "master [slot ranges]" or "replica of <id>", as one node's CLUSTER NODES says. */
  private static Map<Integer, String> roles(List<ClusterNodeLine> view) {
    Map<Integer, String> roles = new TreeMap<>();
    for (ClusterNodeLine line : view) {
      roles.put(
          line.port(),
          line.isMaster()
              ? "master " + line.slots().stream().map(Arrays::toString).toList()
              : "replica of " + line.masterId());
    }
    return roles;
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
