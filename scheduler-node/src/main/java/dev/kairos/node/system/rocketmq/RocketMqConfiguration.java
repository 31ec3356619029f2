package dev.kairos.node.system.rocketmq;

import dev.kairos.node.system.NodeIdentity;
import dev.kairos.protocol.message.ProducerDefaults;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The trigger producer and an admin client, both started with the context and shut down with it.
 * Neither needs a reachable NameServer to start; health reports whether one answers. Both sign
 * their requests with {@link RocketMqProperties#credentials()} when the broker enforces ACL.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RocketMqProperties.class)
class RocketMqConfiguration {

  /**
   * The instance name carries the node name: RocketMQ shares one client instance per (address,
   * instance name), and two nodes in one JVM (tests) must not share a producer group registration.
   */
  @Bean(destroyMethod = "shutdown")
  DefaultMQProducer rocketMqProducer(RocketMqProperties rocketmq, NodeIdentity node)
      throws MQClientException {
    DefaultMQProducer producer =
        new DefaultMQProducer(rocketmq.getProducerGroup(), rocketmq.credentials().rpcHook());
    producer.setNamesrvAddr(rocketmq.getNameServer());
    producer.setInstanceName("kairos-" + node.name());
    producer.setSendMsgTimeout(Math.toIntExact(rocketmq.getSendTimeout().toMillis()));
    producer.setDefaultTopicQueueNums(rocketmq.getDefaultQueueCount());
    ProducerDefaults.apply(producer).start();
    return producer;
  }

  @Bean(destroyMethod = "shutdown")
  DefaultMQAdminExt rocketMqAdmin(RocketMqProperties rocketmq, NodeIdentity node)
      throws MQClientException {
    DefaultMQAdminExt admin =
        new DefaultMQAdminExt(
            rocketmq.credentials().rpcHook(), rocketmq.getAdminTimeout().toMillis());
    admin.setNamesrvAddr(rocketmq.getNameServer());
    admin.setInstanceName("kairos-admin-" + node.name());
    admin.setAdminExtGroup("kairos-admin-" + node.name());
    admin.start();
    return admin;
  }

  @Bean
  RocketMqHealthIndicator rocketmqHealthIndicator(
      DefaultMQAdminExt rocketMqAdmin, RocketMqProperties rocketmq) {
    return new RocketMqHealthIndicator(rocketMqAdmin, rocketmq.getNameServer());
  }
}
