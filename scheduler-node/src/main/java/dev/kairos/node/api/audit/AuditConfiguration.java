package dev.kairos.node.api.audit;

import dev.kairos.audit.AuditStream;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.node.system.NodeIdentity;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The audit trail's wiring ({@code kairos.audit.*}): the trail the controllers record into, and its
 * PostgreSQL side (the stream consumer, the retention, the reads). With {@code
 * kairos.audit.enabled=false} the trail writes log lines only and nothing reads or copies the
 * stream.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuditProperties.class)
class AuditConfiguration {

  @Bean
  AuditTrail auditTrail(
      KairosRedis redis, ClusterClock clock, AuditProperties properties, MeterRegistry meters) {
    AuditStream stream =
        properties.isEnabled()
            ? new AuditStream(redis, properties.getStreamMaxLen(), meters)
            : null;
    return new AuditTrail(stream, clock);
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  AuditPostgres auditPostgres(
      ObjectProvider<DataSource> dataSource,
      KairosRedis redis,
      ClusterClock clock,
      NodeIdentity node,
      AuditProperties properties,
      MeterRegistry meters) {
    return new AuditPostgres(
        properties.isEnabled() ? dataSource.getIfAvailable() : null,
        redis,
        clock,
        node.name(),
        properties,
        meters);
  }
}
