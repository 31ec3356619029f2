package dev.kairos.node.cluster;

import dev.kairos.node.fire.FireProperties;
import dev.kairos.node.system.zookeeper.ZookeeperProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Builds the validated timing parameters; a violation stops the context before anything runs. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ClusterProperties.class, FireProperties.class})
class ClusterConfiguration {

  @Bean
  TimingParameters timingParameters(
      ClusterProperties cluster, ZookeeperProperties zookeeper, FireProperties fire) {
    TimingParameters timing =
        new TimingParameters(
            cluster.getHeartbeatInterval(),
            cluster.getLeaderTimeout(),
            cluster.getElectionBudget(),
            zookeeper.getSessionTimeout(),
            zookeeper.getTickTime(),
            cluster.getScanInterval(),
            cluster.getPreRead(),
            cluster.getWheelReconcileInterval(),
            cluster.getMisfireThreshold(),
            cluster.getDedupWindow(),
            cluster.getRedeliveryBudget(),
            cluster.getSlotLeaseTtl(),
            cluster.getSlotLeaseRenewInterval(),
            fire.getPreDispatch());
    TimingValidator.check(timing);
    return timing;
  }
}
