package dev.kairos.audit;

import dev.kairos.sync.worker.SchemaMigrator;
import java.sql.SQLException;
import java.util.Objects;
import org.flywaydb.core.api.FlywayException;

/**
 * Kairos's Flyway migrations (persistence-sync's, {@code kairos_audit} among them), run the first
 * time the audit side reaches PostgreSQL, never at boot: a node whose history sync is off still
 * gets its audit table, and a node whose database is down still starts. Thread-safe; migrating
 * twice is a no-op (Flyway locks the schema history across nodes).
 */
public final class AuditSchema {

  private final SchemaMigrator migrator;
  private volatile boolean ready;

  public AuditSchema(SchemaMigrator migrator) {
    this.migrator = Objects.requireNonNull(migrator, "migrator");
  }

  /** Migrates once; throws while PostgreSQL is unreachable. */
  public void ensure() throws SQLException {
    if (ready) {
      return;
    }
    synchronized (this) {
      if (ready) {
        return;
      }
      try {
        migrator.migrate();
      } catch (FlywayException e) {
        throw new SQLException("schema migration failed: " + e.getMessage(), e);
      }
      ready = true;
    }
  }
}
