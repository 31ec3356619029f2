package dev.kairos.drills.bench;

import dev.kairos.devinfra.EmbeddedPostgreSql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What persistence-sync has written to PostgreSQL: {@code pg_total_relation_size} (table, indexes,
 * TOAST; dead rows of the upserts included, as a database holds them between vacuums) and the rows
 * of the job and trigger history tables, read over JDBC.
 *
 * @param liveJobs {@code kairos_job} rows not deleted
 * @param triggerRows {@code kairos_trigger} rows: one per ended trigger
 */
record PgSizes(
    long jobBytes,
    long liveJobs,
    long triggerBytes,
    long triggerRows,
    long triggerLogBytes,
    long databaseBytes) {

  static final PgSizes NONE = new PgSizes(0, 0, 0, 0, 0, 0);

  static PgSizes read(EmbeddedPostgreSql pg) {
    try (Connection c = pg.connect();
        Statement st = c.createStatement()) {
      st.setQueryTimeout(120);
      long jobBytes = single(st, "SELECT pg_total_relation_size('kairos_job')");
      long triggerBytes = single(st, "SELECT pg_total_relation_size('kairos_trigger')");
      long logBytes = single(st, "SELECT pg_total_relation_size('kairos_trigger_log')");
      long dbBytes = single(st, "SELECT pg_database_size(current_database())");
      long liveJobs = single(st, "SELECT count(*) FROM kairos_job WHERE NOT deleted");
      long triggers = single(st, "SELECT count(*) FROM kairos_trigger");
      return new PgSizes(jobBytes, liveJobs, triggerBytes, triggers, logBytes, dbBytes);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read PostgreSQL's table sizes: " + e, e);
    }
  }

  /** Live jobs in {@code kairos_job}: what the rebuild would restore. */
  static long liveJobs(EmbeddedPostgreSql pg) {
    try (Connection c = pg.connect();
        Statement st = c.createStatement()) {
      st.setQueryTimeout(60);
      return single(st, "SELECT count(*) FROM kairos_job WHERE NOT deleted");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count PostgreSQL's jobs: " + e, e);
    }
  }

  double bytesPerJob() {
    return liveJobs == 0 ? Double.NaN : jobBytes / (double) liveJobs;
  }

  double bytesPerTrigger() {
    return triggerRows == 0 ? Double.NaN : triggerBytes / (double) triggerRows;
  }

  private static long single(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
