package dev.kairos.devinfra;

/**
 * The pinned images of the containers backend, the same versions {@code docker-compose.yml} runs
 * (its tags float within a minor version; these are exact). Change them together.
 */
final class ContainerImages {

  static final String REDIS = "redis:7.2.7";
  static final String ZOOKEEPER = "zookeeper:3.9.3";
  static final String ROCKETMQ = "apache/rocketmq:5.3.3";
  static final String POSTGRES = "postgres:17.4";

  private ContainerImages() {}
}
