package dev.kairos.node.system.zookeeper;

import dev.kairos.node.cluster.TimingParameters;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One Curator client per node, started with the context and closed with it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ZookeeperProperties.class)
class ZookeeperConfiguration {

  /**
   * Takes the validated {@link TimingParameters} so a node with inconsistent timing never opens a
   * session. Starting does not wait for a connection: the health indicator reports it, and Curator
   * keeps retrying in the background. With {@code kairos.zookeeper.auth} set, every session
   * authenticates and every znode is created readable and writable by those credentials only.
   */
  @Bean(destroyMethod = "close")
  CuratorFramework curatorFramework(ZookeeperProperties zookeeper, TimingParameters timing) {
    CuratorFrameworkFactory.Builder builder =
        CuratorFrameworkFactory.builder()
            .connectString(zookeeper.getConnectString())
            .sessionTimeoutMs(Math.toIntExact(timing.zkSessionTimeout().toMillis()))
            .connectionTimeoutMs(Math.toIntExact(zookeeper.getConnectionTimeout().toMillis()))
            .retryPolicy(
                new ExponentialBackoffRetry(
                    Math.toIntExact(zookeeper.getRetryBaseSleep().toMillis()),
                    zookeeper.getRetryMaxAttempts()));
    CuratorFramework client = ZookeeperAcl.apply(builder, zookeeper.getAuth()).build();
    client.start();
    return client;
  }

  @Bean
  ZookeeperHealthIndicator zookeeperHealthIndicator(
      CuratorFramework curatorFramework, ZookeeperProperties zookeeper) {
    return new ZookeeperHealthIndicator(curatorFramework, zookeeper);
  }
}
