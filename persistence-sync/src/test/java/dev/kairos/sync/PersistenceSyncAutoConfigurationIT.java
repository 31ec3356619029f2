package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.sync.spring.PersistenceSyncAutoConfiguration;
import dev.kairos.sync.spring.PersistenceSyncHealthIndicator;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncMetrics;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The node starts with PostgreSQL unreachable, and the sync health stays UP. */
@RealInfra(redis = RedisMode.CLUSTER)
class PersistenceSyncAutoConfigurationIT {

  private final EmbeddedRedisCluster cluster;

  PersistenceSyncAutoConfigurationIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  private static DataSource unreachablePostgres() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/kairos");
    config.setUsername("kairos");
    config.setPassword("secret-never-logged");
    config.setInitializationFailTimeout(-1);
    config.setConnectionTimeout(500);
    return new HikariDataSource(config);
  }

  private ApplicationContextRunner runner(KairosRedis redis) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(PersistenceSyncAutoConfiguration.class))
        .withBean(KairosRedis.class, () -> redis)
        .withBean(DataSource.class, PersistenceSyncAutoConfigurationIT::unreachablePostgres)
        .withPropertyValues("kairos.sync.consumer=ctx-node", "kairos.sync.retry-initial=100ms");
  }

  @Test
  void contextStartsWithoutPostgresAndHealthStaysUp() {
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5))) {
      ClusterMetadata.initialise(redis, 8);
      runner(redis)
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                StreamSyncWorker worker = context.getBean(StreamSyncWorker.class);
                SyncMetrics metrics = context.getBean(SyncMetrics.class);
                SyncFixture.await(
                    Duration.ofSeconds(20),
                    "a failed PostgreSQL attempt",
                    () -> metrics.databaseFailureCount() > 0);
                assertThat(worker.isRunning()).isTrue();
                var health = context.getBean(PersistenceSyncHealthIndicator.class).health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsEntry("schemaReady", false);
                assertThat(health.getDetails().toString()).doesNotContain("secret-never-logged");
              });
    }
  }

  @Test
  void switchedOffByProperty() {
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5))) {
      runner(redis)
          .withPropertyValues("kairos.sync.enabled=false")
          .run(context -> assertThat(context).doesNotHaveBean(StreamSyncWorker.class));
    }
  }
}
