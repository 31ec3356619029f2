package dev.kairos.node.system.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
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
        // Which scheme, never the credentials: lets an operator check a rollout node by node.
        .withDetail("authentication", properties.getAuth().hasCredentials() ? "digest" : "none")
        .withDetail("requestedSessionTimeoutMs", properties.getSessionTimeout().toMillis());
    if (connected) {
      // The server may grant a different timeout than asked; the timing rules assume the ask.
      ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
      builder.withDetail("negotiatedSessionTimeoutMs", zk.getSessionTimeout());
      // What the servers' "cons" lists: tells an operator (and a drill) which server holds it.
      builder.withDetail("sessionId", "0x" + Long.toHexString(zk.getSessionId()));
    }
  }
}
