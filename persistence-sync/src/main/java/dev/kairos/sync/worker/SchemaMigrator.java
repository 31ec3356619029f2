package dev.kairos.sync.worker;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Runs Kairos's Flyway migrations when the worker first reaches PostgreSQL, never at boot, so a
 * node starts (and schedules) while the database is down.
 */
public final class SchemaMigrator {

  /** Kairos's own history table, so it can share a database with the application's Flyway. */
  public static final String HISTORY_TABLE = "kairos_schema_history";

  private final DataSource dataSource;

  public SchemaMigrator(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Applies pending migrations; throws when PostgreSQL is unreachable. */
  public int migrate() {
    return Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .table(HISTORY_TABLE)
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load()
        .migrate()
        .migrationsExecuted;
  }
}
