package dev.kairos.core.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One Lettuce connection to either a standalone Redis or a Redis Cluster, seen through the commands
 * both share. Lettuce connections are thread-safe and pipeline by themselves, so one instance
 * serves a whole process.
 */
public final class KairosRedis implements AutoCloseable {

  private final ClientResources resources;
  private final RedisClient standaloneClient;
  private final RedisClusterClient clusterClient;
  private final StatefulRedisConnection<String, String> standalone;
  private final StatefulRedisClusterConnection<String, String> cluster;
  private final Duration timeout;
  private final ReplicaWait replicaWait;

  private KairosRedis(
      Duration timeout,
      ReplicaWait.Policy replicaPolicy,
      ClientResources resources,
      RedisClient standaloneClient,
      StatefulRedisConnection<String, String> standalone,
      RedisClusterClient clusterClient,
      StatefulRedisClusterConnection<String, String> cluster) {
    this.resources = resources;
    this.standaloneClient = standaloneClient;
    this.standalone = standalone;
    this.clusterClient = clusterClient;
    this.cluster = cluster;
    this.timeout = timeout;
    this.replicaWait = new ReplicaWait(replicaPolicy, new MasterAcks(), System::nanoTime);
  }

  /**
   * Connects to a standalone server (one URI, {@code clusterMode=false}) or to a cluster through
   * any of its nodes ({@code clusterMode=true}).
   */
  /** The longest pause between two reconnect attempts after a lost connection. */
  public static final Duration MAX_RECONNECT_DELAY = Duration.ofMillis(500);

  /**
   * The shortest time between two topology refreshes a cluster event (reconnects, MOVED) asks for.
   */
  static final Duration ADAPTIVE_REFRESH_INTERVAL = Duration.ofSeconds(1);

  public static KairosRedis connect(List<String> uris, boolean clusterMode, Duration timeout) {
    return connect(uris, clusterMode, timeout, ReplicaWait.Policy.OFF);
  }

  /**
   * As {@link #connect(List, boolean, Duration)}, with the WAIT that follows claim scripts ({@link
   * #replicaWait()}); its timeout must be shorter than the command timeout.
   */
  public static KairosRedis connect(
      List<String> uris, boolean clusterMode, Duration timeout, ReplicaWait.Policy replicaPolicy) {
    Objects.requireNonNull(uris, "uris");
    Objects.requireNonNull(replicaPolicy, "replicaPolicy");
    if (replicaPolicy.enabled() && replicaPolicy.timeout().compareTo(timeout) >= 0) {
      throw new IllegalArgumentException(
          "wait-timeout ("
              + replicaPolicy.timeout()
              + ") must be shorter than the command timeout ("
              + timeout
              + ")");
    }
    if (uris.isEmpty()) {
      throw new IllegalArgumentException("at least one Redis URI is required");
    }
    // Lettuce records every command's latency in a histogram by default; on the fire path that is
    // a measurable share of the event loop's CPU, and Kairos exports its own timers instead.
    ClientResources resources =
        DefaultClientResources.builder()
            .commandLatencyRecorder(CommandLatencyRecorder.disabled())
            // Lettuce's default backs reconnects off up to 30 s: after a 6 s Redis restart a client
            // could stay away for seconds more while leases and fires wait. Capped at 500 ms.
            .reconnectDelay(
                Delay.exponential(
                    Duration.ofMillis(10), MAX_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS))
            .build();
    if (!clusterMode) {
      RedisURI uri = RedisURI.create(uris.get(0));
      uri.setTimeout(timeout);
      RedisClient client = RedisClient.create(resources, uri);
      return new KairosRedis(
          timeout,
          replicaPolicy,
          resources,
          client,
          client.connect(Utf8Codec.INSTANCE),
          null,
          null);
    }
    List<RedisURI> seeds =
        uris.stream().map(RedisURI::create).peek(u -> u.setTimeout(timeout)).toList();
    RedisClusterClient client = RedisClusterClient.create(resources, seeds);
    client.setOptions(
        ClusterClientOptions.builder()
            .topologyRefreshOptions(
                ClusterTopologyRefreshOptions.builder()
                    .enableAllAdaptiveRefreshTriggers()
                    // Lettuce allows one adaptive refresh per 30 s by default. When a master is
                    // killed, the refresh its lost connection triggers comes before the replica's
                    // promotion (cluster-node-timeout later): with the default, its shards would
                    // stay unreachable until the next refresh, 30 s on (issue #14's failover
                    // drill).
                    .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_INTERVAL)
                    .enablePeriodicRefresh(Duration.ofSeconds(30))
                    .build())
            .build());
    return new KairosRedis(
        timeout, replicaPolicy, resources, null, null, client, client.connect(Utf8Codec.INSTANCE));
  }

  /** The command timeout every call of this connection runs under. */
  public Duration timeout() {
    return timeout;
  }

  public boolean isCluster() {
    return cluster != null;
  }

  public RedisClusterCommands<String, String> sync() {
    return cluster != null ? cluster.sync() : standalone.sync();
  }

  public RedisClusterAsyncCommands<String, String> async() {
    return cluster != null ? cluster.async() : standalone.async();
  }

  /** The WAIT to send after a script that commits a claim (off unless configured). */
  public ReplicaWait replicaWait() {
    return replicaWait;
  }

  /** The cluster connection, or {@code null} on a standalone server. */
  public StatefulRedisClusterConnection<String, String> clusterConnection() {
    return cluster;
  }

  @Override
  public void close() {
    if (cluster != null) {
      cluster.close();
      clusterClient.shutdown();
    } else {
      standalone.close();
      standaloneClient.shutdown();
    }
    resources.shutdown();
  }

  /**
   * WAIT on the connection that wrote: the standalone connection, or on a cluster the pooled write
   * connection to the slot's master, which Lettuce keys by host and port — the same one a keyed
   * command to that slot uses (a connection that never wrote would get an immediate, empty WAIT).
   */
  private final class MasterAcks implements ReplicaWait.Acks {

    private static final String STANDALONE = "standalone";

    @Override
    public String masterOf(String key) {
      if (cluster == null) {
        return STANDALONE;
      }
      RedisClusterNode master = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
      return master == null ? null : master.getUri().getHost() + ":" + master.getUri().getPort();
    }

    @Override
    public CompletionStage<Long> await(String master, int replicas, long timeoutMs) {
      if (cluster == null) {
        return standalone.async().waitForReplication(replicas, timeoutMs);
      }
      int colon = master.lastIndexOf(':');
      return cluster
          .getConnectionAsync(
              master.substring(0, colon), Integer.parseInt(master.substring(colon + 1)))
          .thenCompose(c -> c.async().waitForReplication(replicas, timeoutMs));
    }
  }
}
