package dev.kairos.drills;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One scheduler node's own network paths to ZooKeeper (a {@link TcpProxy} per server) and to Redis
 * (one proxy), so a drill can partition that node from one component while every other process
 * keeps its paths. Only a standalone Redis can be proxied: a Redis Cluster redirects clients to the
 * masters' own addresses.
 */
public final class NodeLinks implements AutoCloseable {

  private static final String ZOOKEEPER = "kairos.zookeeper.connect-string";
  private static final String REDIS = "kairos.redis.uris";

  private final List<TcpProxy> zookeeper;
  private final TcpProxy redis;
  private final Map<String, String> overrides;

  private NodeLinks(List<TcpProxy> zookeeper, TcpProxy redis, Map<String, String> overrides) {
    this.zookeeper = zookeeper;
    this.redis = redis;
    this.overrides = overrides;
  }

  /**
   * Starts the proxies for {@code node} in front of the servers named by the infrastructure's
   * {@code properties}; {@link #overrides} then names the proxies instead.
   */
  static NodeLinks start(String node, Map<String, String> properties) {
    if (Boolean.parseBoolean(properties.getOrDefault("kairos.redis.cluster", "false"))) {
      throw new IllegalStateException("a Redis Cluster cannot be proxied: it redirects clients");
    }
    List<TcpProxy> zk = new ArrayList<>();
    for (String server : properties.get(ZOOKEEPER).split(",")) {
      int colon = server.lastIndexOf(':');
      zk.add(
          TcpProxy.start(
              node + "-zk" + zk.size(),
              server.substring(0, colon),
              Integer.parseInt(server.substring(colon + 1))));
    }
    URI uri = URI.create(properties.get(REDIS));
    TcpProxy redis = TcpProxy.start(node + "-redis", uri.getHost(), uri.getPort());
    String proxiedZk =
        zk.stream().map(p -> "127.0.0.1:" + p.port()).collect(Collectors.joining(","));
    String proxiedRedis =
        uri.getScheme()
            + "://"
            + (uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo() + "@")
            + "127.0.0.1:"
            + redis.port()
            + (uri.getRawPath() == null ? "" : uri.getRawPath())
            + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    return new NodeLinks(zk, redis, Map.of(ZOOKEEPER, proxiedZk, REDIS, proxiedRedis));
  }

  /** The node's connection properties that point at the proxies. */
  Map<String, String> overrides() {
    return overrides;
  }

  /** Cuts the node off every ZooKeeper server. */
  public void partitionZooKeeper() {
    zookeeper.forEach(TcpProxy::partition);
  }

  public void healZooKeeper() {
    zookeeper.forEach(TcpProxy::heal);
  }

  /** Cuts the node off Redis. */
  public void partitionRedis() {
    redis.partition();
  }

  public void healRedis() {
    redis.heal();
  }

  @Override
  public void close() {
    zookeeper.forEach(TcpProxy::close);
    redis.close();
  }
}
