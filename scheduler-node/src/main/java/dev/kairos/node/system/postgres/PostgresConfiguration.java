package dev.kairos.node.system.postgres;

import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Health of Boot's DataSource ({@code spring.datasource.*}). The pool is configured to start
 * without a database ({@code initialization-fail-timeout: -1} in application.yml): PostgreSQL only
 * serves history and bootstrap, so the node must run while it is down, and health says so.
 */
@Configuration(proxyBeanMethods = false)
class PostgresConfiguration {

  /** Validation-query timeout; JDBC counts in whole seconds. */
  public static final Duration QUERY_TIMEOUT = Duration.ofSeconds(2);

  @Bean
  PostgresHealthIndicator postgresHealthIndicator(DataSource dataSource) {
    return new PostgresHealthIndicator(dataSource, QUERY_TIMEOUT);
  }
}
