package dev.kairos.builtin.app;

import java.util.Map;

/**
 * Properties the standard executor needs when it shares a test JVM with a scheduler node, whose
 * class path (test scope) brings PostgreSQL and persistence-sync auto-configuration the executor
 * must not open. Its real class path has none of them.
 */
final class InProcess {

  static final Map<String, Object> EXECUTOR_DEFAULTS =
      Map.of(
          "spring.autoconfigure.exclude",
          String.join(
              ",",
              "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
              "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
              "org.springframework.boot.autoconfigure.data.jpa.JpaRepositoriesAutoConfiguration",
              "org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration",
              "dev.kairos.sync.spring.PersistenceSyncAutoConfiguration"));

  private InProcess() {}
}
