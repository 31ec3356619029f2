package dev.kairos.devinfra;

import java.nio.file.Path;

/**
 * How a {@link ComponentPool} starts each kind of component: {@link #EMBEDDED} on this machine, or
 * {@link ContainerStarter} as containers. Either hands back the same component types, so tests
 * cannot tell them apart except by timing.
 */
interface ComponentStarter extends AutoCloseable {

  EmbeddedRedis redis(Path dir);

  EmbeddedRedisCluster redisCluster(Path dir, int masters);

  EmbeddedZooKeeper zookeeper(Path dir);

  EmbeddedZooKeeperEnsemble zookeeperEnsemble(Path dir, int servers);

  EmbeddedRocketMq rocketMq(Path dir);

  EmbeddedPostgreSql postgres(Path dir);

  /** Releases what the starter shares between components (a container network); after them. */
  @Override
  default void close() {}

  /** Processes and in-JVM servers on loopback, from Maven Central artifacts (the default). */
  ComponentStarter EMBEDDED =
      new ComponentStarter() {
        @Override
        public EmbeddedRedis redis(Path dir) {
          return EmbeddedRedis.start(dir);
        }

        @Override
        public EmbeddedRedisCluster redisCluster(Path dir, int masters) {
          return EmbeddedRedisCluster.start(dir, masters);
        }

        @Override
        public EmbeddedZooKeeper zookeeper(Path dir) {
          return EmbeddedZooKeeper.start(dir);
        }

        @Override
        public EmbeddedZooKeeperEnsemble zookeeperEnsemble(Path dir, int servers) {
          return EmbeddedZooKeeperEnsemble.start(dir, servers);
        }

        @Override
        public EmbeddedRocketMq rocketMq(Path dir) {
          return EmbeddedRocketMq.start(dir);
        }

        @Override
        public EmbeddedPostgreSql postgres(Path dir) {
          return EmbeddedPostgreSql.start(dir);
        }
      };
}
