package dev.kairos.sync;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.SchemaMigrator;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncConfig;
import dev.kairos.sync.worker.SyncFaults;
import dev.kairos.sync.worker.SyncMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A clean Redis (a Cluster with every master flushed, or one flushed server; shard count set) and a
 * clean PostgreSQL database (public schema dropped) for one test; closes what it opened in reverse
 * order.
 */
final class SyncFixture implements AutoCloseable {

  static final int SHARDS = 8;

  final EmbeddedPostgreSql pg;
  final KairosRedis redis;
  final HikariDataSource dataSource;
  final RedisKeys keys = new RedisKeys(SHARDS);
  private final List<AutoCloseable> workers = new ArrayList<>();

  SyncFixture(EmbeddedRedisCluster cluster, EmbeddedPostgreSql pg) {
    this(flushed(cluster), pg, true);
  }

  /**
   * @param freshDatabase whether PostgreSQL starts empty too; false keeps what an earlier fixture
   *     synced there (Redis alone lost its data)
   */
  SyncFixture(EmbeddedRedisCluster cluster, EmbeddedPostgreSql pg, boolean freshDatabase) {
    this(flushed(cluster), pg, freshDatabase);
  }

  SyncFixture(EmbeddedRedis server, EmbeddedPostgreSql pg) {
    this(flushed(server), pg, true);
  }

  private SyncFixture(KairosRedis redis, EmbeddedPostgreSql pg, boolean freshDatabase) {
    this.pg = pg;
    this.redis = redis;
    ClusterMetadata.initialise(redis, SHARDS);
    this.dataSource = dataSource(pg);
    if (!freshDatabase) {
      return;
    }
    try (Connection c = pg.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA public CASCADE");
      st.execute("CREATE SCHEMA public");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static KairosRedis flushed(EmbeddedRedisCluster cluster) {
    for (int i = 0; i < cluster.size(); i++) {
      cluster.flushNode(i);
    }
    return KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
  }

  private static KairosRedis flushed(EmbeddedRedis server) {
    KairosRedis redis = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(5));
    redis.sync().flushall();
    return redis;
  }

  static HikariDataSource dataSource(EmbeddedPostgreSql pg) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(pg.jdbcUrl());
    config.setUsername(pg.username());
    config.setPassword(pg.password());
    config.setMaximumPoolSize(4);
    config.setConnectionTimeout(2_000);
    config.setInitializationFailTimeout(-1);
    config.setPoolName("sync-test");
    // A read on a connection whose server vanished must fail, not block the worker forever.
    config.addDataSourceProperty("socketTimeout", "10");
    config.addDataSourceProperty("connectTimeout", "2");
    return new HikariDataSource(config);
  }

  static SyncConfig fastConfig(String consumer) {
    return SyncConfig.builder(consumer)
        .claimIdle(Duration.ofMillis(500))
        .claimInterval(Duration.ofMillis(300))
        .retryInitial(Duration.ofMillis(100))
        .retryMax(Duration.ofMillis(500))
        .build();
  }

  StreamSyncWorker worker(SyncConfig config, SyncMetrics metrics, SyncFaults faults) {
    StreamSyncWorker worker =
        new StreamSyncWorker(
            redis,
            new SyncStore(dataSource),
            new SchemaMigrator(dataSource),
            config,
            metrics,
            faults);
    workers.add(worker);
    return worker;
  }

  StreamSyncWorker worker(String consumer) {
    return worker(
        fastConfig(consumer), new SyncMetrics(new SimpleMeterRegistry()), SyncFaults.NONE);
  }

  /** Polls {@code condition} until it holds, or fails naming {@code what} ({@link Poll#until}). */
  static void await(Duration timeout, String what, BooleanSupplier condition) {
    Poll.until(timeout, what, condition::getAsBoolean);
  }

  @Override
  public void close() throws Exception {
    for (int i = workers.size() - 1; i >= 0; i--) {
      workers.get(i).close();
    }
    dataSource.close();
    redis.close();
  }
}
