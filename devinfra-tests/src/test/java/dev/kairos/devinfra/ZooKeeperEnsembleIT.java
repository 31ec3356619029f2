package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.Test;

@RealInfra(zookeeper = ZkMode.ENSEMBLE)
class ZooKeeperEnsembleIT {

  @Test
  void clientKeepsReadingAndWritingWhileAnyOneServerIsDown(EmbeddedZooKeeperEnsemble ensemble)
      throws Exception {
    assertThat(ensemble.size()).isEqualTo(3);
    String path = "/kairos-it/ensemble-" + UUID.randomUUID();
    try (CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(ensemble.connectString())
            .sessionTimeoutMs(15_000)
            .connectionTimeoutMs(3_000)
            .retryPolicy(new ExponentialBackoffRetry(100, 10))
            .build()) {
      client.start();
      client.create().creatingParentsIfNeeded().forPath(path, bytes(-1));

      // Stopping each server in turn includes the one this client is connected to.
      for (int down = 0; down < ensemble.size(); down++) {
        ensemble.stopServer(down);
        try {
          client.setData().forPath(path, bytes(down));
          assertThat(new String(client.getData().forPath(path))).isEqualTo("written-" + down);
        } finally {
          ensemble.restartServer(down);
        }
      }
    }
  }

  private static byte[] bytes(int round) {
    return ("written-" + round).getBytes();
  }
}
