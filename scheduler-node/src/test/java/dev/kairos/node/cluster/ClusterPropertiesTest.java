package dev.kairos.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.node.fire.FirePathSettings;
import dev.kairos.node.fire.FireProperties;
import dev.kairos.node.system.zookeeper.ZookeeperProperties;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** {@code kairos.cluster.*} bound by one class and translated once into the scan's settings. */
class ClusterPropertiesTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withUserConfiguration(ClusterConfiguration.class, Zookeeper.class);

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ZookeeperProperties.class)
  static class Zookeeper {}

  @Test
  void oneClassBindsTheTimingAndHowNodesTalk() {
    runner
        .withPropertyValues(
            "kairos.cluster.scan-interval=2s",
            "kairos.cluster.pre-read=8s",
            "kairos.cluster.misfire-threshold=8s",
            "kairos.cluster.secret=s3cret-cluster",
            "kairos.cluster.leadership.enabled=false",
            "kairos.cluster.leadership.failover-sweep-interval=3s",
            "kairos.cluster.drain.timeout=1m",
            "kairos.fire.ack-linger=0ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              ClusterProperties cluster = context.getBean(ClusterProperties.class);
              assertThat(cluster.getSecret()).isEqualTo("s3cret-cluster");
              assertThat(cluster.getLeadership().isEnabled()).isFalse();
              assertThat(cluster.getLeadership().getFailoverSweepInterval())
                  .isEqualTo(Duration.ofSeconds(3));
              assertThat(cluster.getDrain().getTimeout()).isEqualTo(Duration.ofMinutes(1));
              assertThat(cluster.toString()).doesNotContain("s3cret-cluster");

              ScanConfig scan = cluster.toScanConfig(Duration.ofSeconds(4));
              assertThat(scan.interval()).isEqualTo(Duration.ofSeconds(2));
              assertThat(scan.preRead()).isEqualTo(Duration.ofSeconds(8));
              assertThat(scan.redisTimeout()).isEqualTo(Duration.ofSeconds(4));
              assertThat(scan.spread()).isEqualTo(ClusterProperties.DEFAULT_SCAN_SPREAD);

              FirePathSettings fire =
                  context
                      .getBean(FireProperties.class)
                      .toSettings(context.getBean(TimingParameters.class));
              assertThat(fire.preRead()).isEqualTo(Duration.ofSeconds(8));
              assertThat(fire.ackLinger()).isZero();
            });
  }

  @Test
  void unsetPropertiesGiveTheScanTheLibraryDefaultsSpreadOverAQuarterSecond() {
    assertThat(new ClusterProperties().toScanConfig(ScanConfig.DEFAULT_REDIS_TIMEOUT))
        .isEqualTo(ScanConfig.builder().spread(ClusterProperties.DEFAULT_SCAN_SPREAD).build());
  }

  @Test
  void aSpreadLongerThanTheScanIntervalNamesBothProperties() {
    ClusterProperties cluster = new ClusterProperties();
    cluster.setScanSpread(Duration.ofSeconds(2));
    assertThatThrownBy(() -> cluster.toScanConfig(ScanConfig.DEFAULT_REDIS_TIMEOUT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("kairos.cluster.scan-spread")
        .hasMessageContaining("kairos.cluster.scan-interval");
  }
}
