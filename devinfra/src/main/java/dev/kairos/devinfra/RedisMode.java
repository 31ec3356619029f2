package dev.kairos.devinfra;

/** Which Redis the kit starts. */
public enum RedisMode {
  /** No Redis. */
  NONE,
  /** One standalone server: {@link EmbeddedRedis}. */
  STANDALONE,
  /** A three-master cluster: {@link EmbeddedRedisCluster}. */
  CLUSTER
}
