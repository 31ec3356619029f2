package dev.kairos.node.system.rocketmq;

import java.util.Map;
import java.util.TreeMap;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * UP when the NameServer answers and knows at least one broker: a NameServer without brokers
 * accepts no message, so it is not enough on its own.
 */
class RocketMqHealthIndicator extends AbstractHealthIndicator {

  private final DefaultMQAdminExt admin;
  private final String nameServer;

  RocketMqHealthIndicator(DefaultMQAdminExt admin, String nameServer) {
    super("RocketMQ health check failed");
    this.admin = admin;
    this.nameServer = nameServer;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    builder.withDetail("nameServer", nameServer);
    ClusterInfo info = admin.examineBrokerClusterInfo();
    Map<String, BrokerData> brokers =
        info.getBrokerAddrTable() == null ? Map.of() : info.getBrokerAddrTable();
    Map<String, String> masters = new TreeMap<>();
    brokers.forEach(
        (name, data) -> masters.put(name, String.valueOf(data.getBrokerAddrs().get(0L))));
    builder
        .status(brokers.isEmpty() ? "DOWN" : "UP")
        .withDetail("brokers", masters)
        .withDetail(
            "clusters", info.getClusterAddrTable() == null ? Map.of() : info.getClusterAddrTable());
  }
}
