package dev.kairos.node.system.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * UP when PostgreSQL answers a validation query within a short timeout. Borrowing the connection is
 * bounded by the pool's connection timeout ({@code spring.datasource.hikari.connection-timeout}).
 */
class PostgresHealthIndicator extends AbstractHealthIndicator {

  static final String VALIDATION_QUERY = "SELECT 1";

  private final DataSource dataSource;
  private final Duration queryTimeout;

  PostgresHealthIndicator(DataSource dataSource, Duration queryTimeout) {
    super("PostgreSQL health check failed");
    this.dataSource = dataSource;
    this.queryTimeout = queryTimeout;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.setQueryTimeout(Math.max(1, Math.toIntExact(queryTimeout.toSeconds())));
      try (ResultSet rs = statement.executeQuery(VALIDATION_QUERY)) {
        boolean answered = rs.next() && rs.getInt(1) == 1;
        builder
            .status(answered ? "UP" : "DOWN")
            .withDetail("database", connection.getMetaData().getDatabaseProductName())
            .withDetail("version", connection.getMetaData().getDatabaseProductVersion())
            .withDetail("validationQuery", VALIDATION_QUERY);
      }
    }
  }
}
