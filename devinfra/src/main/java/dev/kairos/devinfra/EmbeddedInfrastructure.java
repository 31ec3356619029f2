package dev.kairos.devinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Real Redis, ZooKeeper, RocketMQ and PostgreSQL on loopback, started together under one work dir:
 *
 * <pre>{@code
 * try (EmbeddedInfrastructure infra =
 *     EmbeddedInfrastructure.builder()
 *         .workDir(dir)
 *         .redis(RedisMode.CLUSTER)
 *         .zookeeper(ZkMode.STANDALONE)
 *         .rocketMq(true)
 *         .postgres(true)
 *         .start()) {
 *   Map<String, String> props = infra.springProperties();
 * }
 * }</pre>
 *
 * <p>Components start in parallel; each logs "... started on ... in N ms". {@link #close()} closes
 * them in reverse order and leaves no child process behind. A getter returns null for a component
 * that was not requested.
 *
 * <p>An instance injected by {@link RealInfraExtension} is a view on components shared by the whole
 * test JVM: its getters show what the test class asked for, and its {@code close()} does nothing
 * (the extension closes the shared components when the JVM's tests are done).
 */
public final class EmbeddedInfrastructure implements AutoCloseable {

  private final ComponentPool pool;
  private final InfraRequest request;
  private final boolean ownsPool;

  EmbeddedInfrastructure(ComponentPool pool, InfraRequest request, boolean ownsPool) {
    this.pool = pool;
    this.request = request;
    this.ownsPool = ownsPool;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The standalone Redis, or null unless {@code redis(STANDALONE)}. */
  public EmbeddedRedis redis() {
    return request.redis() == RedisMode.STANDALONE ? pool.redis : null;
  }

  /**
   * The Redis Cluster: 3 masters for {@code redis(CLUSTER)}, 3 masters with a replica each for
   * {@code redis(CLUSTER_WITH_REPLICAS)}; otherwise null.
   */
  public EmbeddedRedisCluster redisCluster() {
    return switch (request.redis()) {
      case CLUSTER -> pool.redisCluster;
      case CLUSTER_WITH_REPLICAS -> pool.replicatedCluster;
      default -> null;
    };
  }

  /** The standalone ZooKeeper, or null unless {@code zookeeper(STANDALONE)}. */
  public EmbeddedZooKeeper zookeeper() {
    return request.zookeeper() == ZkMode.STANDALONE ? pool.zookeeper : null;
  }

  /** The 3-server ZooKeeper ensemble, or null unless {@code zookeeper(ENSEMBLE)}. */
  public EmbeddedZooKeeperEnsemble zookeeperEnsemble() {
    return request.zookeeper() == ZkMode.ENSEMBLE ? pool.zookeeperEnsemble : null;
  }

  /** The RocketMQ NameServer + Broker, or null unless {@code rocketMq(true)}. */
  public EmbeddedRocketMq rocketMq() {
    return request.rocketMq() ? pool.rocketMq : null;
  }

  /** The PostgreSQL server, or null unless {@code postgres(true)}. */
  public EmbeddedPostgreSql postgres() {
    return request.postgres() ? pool.postgres : null;
  }

  /** The directory every component keeps its data and logs under. */
  public Path workDir() {
    return pool.workDir();
  }

  /**
   * The connection properties a Kairos scheduler node reads, for the components that were started
   * (keys of components not started are absent): {@code kairos.redis.uris} (comma-separated),
   * {@code kairos.redis.cluster}, {@code kairos.zookeeper.connect-string}, {@code
   * kairos.rocketmq.name-server}, {@code kairos.fire.broker-cluster}, {@code
   * spring.datasource.url}, {@code spring.datasource.username}, {@code spring.datasource.password}.
   */
  public Map<String, String> springProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    if (redis() != null) {
      properties.put("kairos.redis.uris", redis().uri());
      properties.put("kairos.redis.cluster", "false");
    }
    if (redisCluster() != null) {
      properties.put("kairos.redis.uris", String.join(",", redisCluster().uris()));
      properties.put("kairos.redis.cluster", "true");
    }
    if (zookeeper() != null) {
      properties.put("kairos.zookeeper.connect-string", zookeeper().connectString());
    }
    if (zookeeperEnsemble() != null) {
      properties.put("kairos.zookeeper.connect-string", zookeeperEnsemble().connectString());
    }
    if (rocketMq() != null) {
      properties.put("kairos.rocketmq.name-server", rocketMq().nameServerAddress());
      // The broker cluster the node and executors create their topics in.
      properties.put("kairos.fire.broker-cluster", EmbeddedRocketMq.CLUSTER_NAME);
    }
    if (postgres() != null) {
      properties.put("spring.datasource.url", postgres().jdbcUrl());
      properties.put("spring.datasource.username", postgres().username());
      properties.put("spring.datasource.password", postgres().password());
    }
    return properties;
  }

  /** Closes every component in reverse start order (a no-op on an extension-injected view). */
  @Override
  public void close() {
    if (ownsPool) {
      pool.close();
    }
  }

  @Override
  public String toString() {
    // No passwords in logs: print the keys' values except the datasource password.
    return "EmbeddedInfrastructure"
        + springProperties().entrySet().stream()
            .filter(e -> !e.getKey().endsWith("password"))
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", ", "[", "]"));
  }

  /** Chooses the components; {@link #start()} starts them. Everything defaults to off. */
  public static final class Builder {

    private Path workDir;
    private RedisMode redis = RedisMode.NONE;
    private ZkMode zookeeper = ZkMode.NONE;
    private boolean rocketMq;
    private boolean postgres;

    private Builder() {}

    /** Where data and logs go; default: a new directory under {@code java.io.tmpdir}. */
    public Builder workDir(Path workDir) {
      // Absolute: child processes (redis-server) run with their own working directory.
      this.workDir = Objects.requireNonNull(workDir, "workDir").toAbsolutePath();
      return this;
    }

    public Builder redis(RedisMode redis) {
      this.redis = Objects.requireNonNull(redis, "redis");
      return this;
    }

    public Builder zookeeper(ZkMode zookeeper) {
      this.zookeeper = Objects.requireNonNull(zookeeper, "zookeeper");
      return this;
    }

    public Builder rocketMq(boolean rocketMq) {
      this.rocketMq = rocketMq;
      return this;
    }

    public Builder postgres(boolean postgres) {
      this.postgres = postgres;
      return this;
    }

    /**
     * Starts the chosen components. If one fails, the ones already started are closed and an {@link
     * IllegalStateException} names the component and the cause.
     */
    public EmbeddedInfrastructure start() {
      ComponentPool pool = new ComponentPool(workDir != null ? workDir : newTempWorkDir());
      try {
        pool.ensure(new InfraRequest(redis, zookeeper, rocketMq, postgres));
      } catch (RuntimeException e) {
        pool.close();
        throw e;
      }
      return new EmbeddedInfrastructure(
          pool, new InfraRequest(redis, zookeeper, rocketMq, postgres), true);
    }
  }

  static Path newTempWorkDir() {
    try {
      Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
      Files.createDirectories(tmp);
      return Files.createTempDirectory(tmp, "kairos-devinfra-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a work dir under java.io.tmpdir", e);
    }
  }
}
