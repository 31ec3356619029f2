package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

@RealInfra(zookeeper = ZkMode.STANDALONE)
class ZooKeeperIT {

  private static final int SHORT_SESSION_MILLIS = 1_500;

  private final EmbeddedZooKeeper zk;

  ZooKeeperIT(EmbeddedZooKeeper zk) {
    this.zk = zk;
  }

  @Test
  void ephemeralNodeDisappearsWhenItsSessionExpires() throws Exception {
    String path = "/kairos-it/members/" + UUID.randomUUID();
    try (CuratorFramework owner = client(SHORT_SESSION_MILLIS);
        CuratorFramework observer = client(10_000)) {
      owner.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path);
      assertThat(observer.checkExists().forPath(path)).isNotNull();
      long sessionId = owner.getZookeeperClient().getZooKeeper().getSessionId();

      // The owner's connection goes silent without closing the session: only the server's
      // session timeout can remove the node.
      owner.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();

      Poll.until(
          Duration.ofSeconds(15),
          "ephemeral " + path + " of session 0x" + Long.toHexString(sessionId) + " to vanish",
          () -> exists(observer, path) == false);
    }
  }

  @Test
  void restartKeepsPersistentDataAndStoppedServerRefusesClients() throws Exception {
    String path = "/kairos-it/config-" + UUID.randomUUID();
    try (CuratorFramework client = client(10_000)) {
      client.create().creatingParentsIfNeeded().forPath(path, "v1".getBytes());
    }

    zk.stop();
    try (CuratorFramework client = client(10_000)) {
      assertThat(client.blockUntilConnected(1, TimeUnit.SECONDS)).isFalse();
    } finally {
      zk.restart();
    }

    try (CuratorFramework client = client(10_000)) {
      assertThat(new String(client.getData().forPath(path))).isEqualTo("v1");
    }
  }

  @Test
  void longSessionTimeoutsAreGrantedUnclamped() throws Exception {
    // ZooKeeper's default maximum is 20 ticks (10 s here); the kit raises it to 60 s.
    try (CuratorFramework client = client(45_000)) {
      assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
      assertThat(client.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(45_000);
      assertThatThrownBy(() -> client.getData().forPath("/kairos-it/absent-" + UUID.randomUUID()))
          .isInstanceOf(KeeperException.NoNodeException.class);
    }
  }

  private CuratorFramework client(int sessionTimeoutMillis) throws InterruptedException {
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(zk.connectString())
            .sessionTimeoutMs(sessionTimeoutMillis)
            .connectionTimeoutMs(1_000)
            .retryPolicy(new RetryOneTime(100))
            .build();
    client.start();
    return client;
  }

  private static boolean exists(CuratorFramework client, String path) {
    try {
      return client.checkExists().forPath(path) != null;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
