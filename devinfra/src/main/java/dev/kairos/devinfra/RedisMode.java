package dev.kairos.devinfra;

/** Which Redis the kit starts. */
public enum RedisMode {
  /** No Redis. */
  NONE,
  /** One standalone server: {@link EmbeddedRedis}. */
  STANDALONE,
  /** A three-master cluster: {@link EmbeddedRedisCluster}. */
  CLUSTER,
  /**
   * Three masters with one replica each (AOF everysec): an {@link EmbeddedRedisCluster} of its own,
   * for tests that kill a master and watch its replica take over.
   */
  CLUSTER_WITH_REPLICAS
}
