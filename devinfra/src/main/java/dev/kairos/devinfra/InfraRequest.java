package dev.kairos.devinfra;

import java.util.Objects;

/** What a caller asked the kit for. */
record InfraRequest(RedisMode redis, ZkMode zookeeper, boolean rocketMq, boolean postgres) {

  InfraRequest {
    Objects.requireNonNull(redis, "redis");
    Objects.requireNonNull(zookeeper, "zookeeper");
  }

  static InfraRequest of(RealInfra annotation) {
    return new InfraRequest(
        annotation.redis(), annotation.zookeeper(), annotation.rocketMq(), annotation.postgres());
  }
}
