package dev.kairos.node.system;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Resolves the node's identity once, at start. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(NodeProperties.class)
class NodeConfiguration {

  private static final Logger log = LoggerFactory.getLogger(NodeConfiguration.class);

  @Bean
  NodeIdentity nodeIdentity(NodeProperties node, @Value("${server.port:8080}") int serverPort) {
    NodeIdentity identity =
        NodeIdentity.resolve(node.getName(), node.getInternalAddress(), serverPort);
    if (node.getName().isBlank() && serverPort == 0) {
      log.warn(
          "kairos.node.name is empty and server.port is 0: node name {} will not survive a restart;"
              + " set kairos.node.name",
          identity.name());
    }
    log.info(
        "Node {} (incarnation {}) reachable at {}",
        identity.name(),
        identity.incarnation(),
        identity.internalAddress());
    return identity;
  }
}
