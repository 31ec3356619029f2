package dev.kairos.sync.spring;

import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.ShardReadiness;
import dev.kairos.sync.history.TriggerHistoryQueries;
import dev.kairos.sync.history.TriggerRetention;
import dev.kairos.sync.rebuild.RedisRebuilder;
import dev.kairos.sync.rebuild.ShardInitialiser;
import dev.kairos.sync.store.SyncStore;
import dev.kairos.sync.worker.Backoff;
import dev.kairos.sync.worker.SchemaMigrator;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncFaults;
import dev.kairos.sync.worker.SyncHealth;
import dev.kairos.sync.worker.SyncLagMonitor;
import dev.kairos.sync.worker.SyncMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.function.IntSupplier;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires persistence-sync when the application has a {@link KairosRedis} and a {@link DataSource}.
 * Nothing here touches PostgreSQL at start-up: migrations run from the worker thread when the
 * database is first reachable, and the sync path is plain JDBC (no EntityManagerFactory). The
 * application's pool must tolerate a missing database ({@code
 * spring.datasource.hikari.initialization-fail-timeout=-1}), and Boot's own Flyway and JPA
 * auto-configurations must stay off or be pointed elsewhere (they connect eagerly).
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnProperty(
    prefix = "kairos.sync",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@ConditionalOnBean({KairosRedis.class, DataSource.class})
@EnableConfigurationProperties(SyncProperties.class)
public class PersistenceSyncAutoConfiguration {

  /** Bounds one pipelined read of the shard markers. */
  private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(5);

  @Bean
  @ConditionalOnMissingBean
  SyncMetrics kairosSyncMetrics(ObjectProvider<MeterRegistry> registry) {
    return new SyncMetrics(registry.getIfAvailable(SimpleMeterRegistry::new));
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean
  StreamSyncWorker kairosStreamSyncWorker(
      KairosRedis redis, DataSource dataSource, SyncProperties properties, SyncMetrics metrics) {
    return new StreamSyncWorker(
        redis,
        new SyncStore(dataSource),
        new SchemaMigrator(dataSource),
        properties.toConfig(hostName()),
        metrics,
        SyncFaults.NONE);
  }

  @Bean
  @ConditionalOnMissingBean
  SyncHealth kairosSyncHealth(KairosRedis redis, SyncProperties properties, SyncMetrics metrics) {
    return new SyncHealth(
        redis,
        properties.getGroup(),
        System::currentTimeMillis,
        metrics.registry(),
        properties.getLagThreshold());
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean
  SyncLagMonitor kairosSyncLagMonitor(
      SyncHealth health, SyncProperties properties, SyncMetrics metrics) {
    return new SyncLagMonitor(health, properties.getLagCheckInterval(), metrics);
  }

  @Bean
  @ConditionalOnMissingBean
  TriggerHistoryQueries kairosTriggerHistoryQueries(DataSource dataSource) {
    return new TriggerHistoryQueries(dataSource);
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean
  TriggerRetention kairosTriggerRetention(DataSource dataSource, SyncProperties properties) {
    return new TriggerRetention(
        dataSource,
        System::currentTimeMillis,
        properties.getRetention(),
        properties.getRetentionInterval(),
        TriggerRetention.DEFAULT_BATCH);
  }

  /** Run by {@link ShardInitialiser}, and by the admin API's rebuild operation. */
  @Bean
  @ConditionalOnMissingBean
  RedisRebuilder kairosRedisRebuilder(KairosRedis redis, DataSource dataSource) {
    return new RedisRebuilder(
        redis, dataSource, System::currentTimeMillis, RedisRebuilder.DEFAULT_LOCK_TTL);
  }

  /**
   * The scanner's {@link ShardReadiness}: shards without an initialised marker are not scanned
   * until rebuilt from PostgreSQL. Redis only at start; PostgreSQL from its own thread.
   */
  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean
  ShardInitialiser kairosShardInitialiser(
      KairosRedis redis,
      RedisRebuilder rebuilder,
      ObjectProvider<RedisKeys> keys,
      SyncProperties properties,
      SyncMetrics metrics) {
    RedisKeys layout = keys.getIfAvailable();
    IntSupplier shards = layout != null ? layout::shards : () -> storedShards(redis);
    return new ShardInitialiser(
        redis,
        rebuilder,
        shards,
        properties.getShardCheckInterval(),
        REDIS_TIMEOUT,
        new Backoff(properties.getRetryInitial(), properties.getRetryMax()),
        metrics.registry());
  }

  private static int storedShards(KairosRedis redis) {
    String stored = redis.sync().hget(RedisKeys.META, ClusterMetadata.SHARDS);
    return stored == null ? 0 : Integer.parseInt(stored);
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  static class HealthConfiguration {

    /** Bean name gives the health component name {@code persistenceSync}. */
    @Bean
    @ConditionalOnMissingBean(name = "persistenceSyncHealthIndicator")
    PersistenceSyncHealthIndicator persistenceSyncHealthIndicator(
        SyncHealth health, StreamSyncWorker worker) {
      return new PersistenceSyncHealthIndicator(health, worker);
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "node-" + ProcessHandle.current().pid();
    }
  }
}
