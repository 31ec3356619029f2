package dev.kairos.audit;

import dev.kairos.sync.event.StreamId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The {@code kairos_audit} table (migration {@code V7__audit_log.sql}): batched idempotent inserts
 * keyed by the stream entry id, and the newest-first pages the API reads with filters and a cursor.
 * Plain JDBC, like the history sync. Thread-safe.
 */
public final class AuditTable {

  /** A query that PostgreSQL has not answered in this time fails (the API answers 503). */
  static final int QUERY_TIMEOUT_SECONDS = 10;

  private static final String COLUMNS =
      "stream_ms, stream_seq, at_ms, actor, actor_source, action, app, job_id, trigger_id,"
          + " version_before, version_after, job_before, job_after, script_sha256, detail";

  private static final String INSERT =
      "INSERT INTO kairos_audit ("
          + COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (stream_ms, stream_seq) DO NOTHING";

  /**
   * What the API filters by; every field optional, combined with AND.
   *
   * @param fromMs change time at or after, epoch ms
   * @param toMs change time before, epoch ms
   */
  public record Filter(String app, String jobId, String actor, Long fromMs, Long toMs) {}

  /**
   * One page, newest first.
   *
   * @param next the id the next page continues below, or null on the last page
   */
  public record Page(List<AuditRecord> items, StreamId next) {}

  private final DataSource dataSource;

  public AuditTable(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /**
   * Inserts the records in one transaction; a record already there (a replay after a crash between
   * the commit and the XACK, or two consumers that read the same entry) is left as it is. Returns
   * how many rows were new.
   */
  public int insert(List<AuditRecord> records) throws SQLException {
    if (records.isEmpty()) {
      return 0;
    }
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(INSERT)) {
        for (AuditRecord r : records) {
          AuditEntry e = r.entry();
          ps.setLong(1, r.id().ms());
          ps.setLong(2, r.id().seq());
          ps.setLong(3, e.atMs());
          ps.setString(4, e.actor());
          ps.setString(5, e.actorSource());
          ps.setString(6, e.action());
          ps.setString(7, e.app());
          ps.setString(8, e.jobId());
          ps.setString(9, e.triggerId());
          setLong(ps, 10, e.versionBefore());
          setLong(ps, 11, e.versionAfter());
          ps.setString(12, e.jobBefore());
          ps.setString(13, e.jobAfter());
          ps.setString(14, e.scriptSha256());
          ps.setString(15, e.detail());
          ps.addBatch();
        }
        int inserted = 0;
        for (int n : ps.executeBatch()) {
          inserted += Math.max(0, n);
        }
        c.commit();
        return inserted;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  /** Up to {@code limit} records matching {@code filter} with ids below {@code before}. */
  public Page page(Filter filter, StreamId before, int limit) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM kairos_audit");
    List<Object> args = new ArrayList<>();
    String and = " WHERE ";
    if (filter.app() != null) {
      sql.append(and).append("app = ?");
      args.add(filter.app());
      and = " AND ";
    }
    if (filter.jobId() != null) {
      sql.append(and).append("job_id = ?");
      args.add(filter.jobId());
      and = " AND ";
    }
    if (filter.actor() != null) {
      sql.append(and).append("actor = ?");
      args.add(filter.actor());
      and = " AND ";
    }
    if (filter.fromMs() != null) {
      sql.append(and).append("at_ms >= ?");
      args.add(filter.fromMs());
      and = " AND ";
    }
    if (filter.toMs() != null) {
      sql.append(and).append("at_ms < ?");
      args.add(filter.toMs());
      and = " AND ";
    }
    if (before != null) {
      sql.append(and).append("(stream_ms, stream_seq) < (?, ?)");
      args.add(before.ms());
      args.add(before.seq());
    }
    sql.append(" ORDER BY stream_ms DESC, stream_seq DESC LIMIT ?");
    args.add(limit + 1);
    List<AuditRecord> items = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.toString())) {
      ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      for (int i = 0; i < args.size(); i++) {
        ps.setObject(i + 1, args.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          items.add(read(rs));
        }
      }
    }
    StreamId next = null;
    if (items.size() > limit) {
      items = new ArrayList<>(items.subList(0, limit));
      next = items.get(limit - 1).id();
    }
    return new Page(items, next);
  }

  /** Deletes up to {@code batch} records of changes before {@code cutoffMs}; returns how many. */
  int deleteBefore(long cutoffMs, int batch) throws SQLException {
    String sql =
        "DELETE FROM kairos_audit WHERE (stream_ms, stream_seq) IN (SELECT stream_ms, stream_seq"
            + " FROM kairos_audit WHERE at_ms < ? ORDER BY at_ms LIMIT ?)";
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, cutoffMs);
      ps.setInt(2, batch);
      return ps.executeUpdate();
    }
  }

  private static AuditRecord read(ResultSet rs) throws SQLException {
    StreamId id = new StreamId(rs.getLong("stream_ms"), rs.getLong("stream_seq"));
    AuditEntry entry =
        new AuditEntry(
            rs.getLong("at_ms"),
            rs.getString("actor"),
            rs.getString("actor_source"),
            rs.getString("action"),
            rs.getString("app"),
            rs.getString("job_id"),
            rs.getString("trigger_id"),
            getLong(rs, "version_before"),
            getLong(rs, "version_after"),
            rs.getString("job_before"),
            rs.getString("job_after"),
            rs.getString("script_sha256"),
            rs.getString("detail"));
    return new AuditRecord(id, entry);
  }

  private static void setLong(PreparedStatement ps, int index, Long value) throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.BIGINT);
    } else {
      ps.setLong(index, value);
    }
  }

  private static Long getLong(ResultSet rs, String column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }
}
