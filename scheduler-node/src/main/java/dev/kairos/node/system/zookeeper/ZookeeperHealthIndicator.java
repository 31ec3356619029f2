package dev.kairos.node.system.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/** UP while the Curator client holds a connected ZooKeeper session. */
class ZookeeperHealthIndicator extends AbstractHealthIndicator {

  private final CuratorFramework client;
  private final ZookeeperProperties properties;

  ZookeeperHealthIndicator(CuratorFramework client, ZookeeperProperties properties) {
    super("ZooKeeper health check failed");
    this.client = client;
    this.properties = properties;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    boolean connected = client.getZookeeperClient().isConnected();
    builder
        .status(connected ? "UP" : "DOWN")
        .withDetail("connectString", properties.getConnectString())
        .withDetail("state", client.getState().name())
        .withDetail("connected", connected)
        .withDetail("requestedSessionTimeoutMs", properties.getSessionTimeout().toMillis());
    if (connected) {
      // The server may grant a different timeout than asked; the timing rules assume the ask.
      builder.withDetail(
          "negotiatedSessionTimeoutMs",
          client.getZookeeperClient().getZooKeeper().getSessionTimeout());
    }
  }
}
