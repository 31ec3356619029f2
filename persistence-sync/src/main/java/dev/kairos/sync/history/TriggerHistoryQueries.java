package dev.kairos.sync.history;

import dev.kairos.core.log.LogLine;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Trigger history and daily reports, served from PostgreSQL (Redis keeps only recent triggers).
 * Every query is bounded (a page or a limit) and backed by an index of the schema.
 */
public final class TriggerHistoryQueries {

  /** States counted as failures in reports and the failure query. */
  public static final String FAILURE_STATES =
      "('FAIL', 'TIMEOUT', 'LOST', 'EXPIRED', 'NO_EXECUTOR')";

  public static final int MAX_PAGE_SIZE = 500;

  private static final String COLUMNS =
      "trigger_id, job_id, fire_ms, state, attempt, node, term, executor, slot, message,"
          + " claimed_ms, dispatched_ms, started_ms, ended_ms";

  private final DataSource dataSource;

  public TriggerHistoryQueries(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** A job's triggers, newest scheduled fire first; {@code page} counts from 0. */
  public List<TriggerRecord> recentTriggers(String jobId, int page, int size) throws SQLException {
    checkPage(page, size);
    return query(
        "SELECT "
            + COLUMNS
            + " FROM kairos_trigger WHERE job_id = ? ORDER BY fire_ms DESC, trigger_id"
            + " LIMIT ? OFFSET ?",
        ps -> {
          ps.setString(1, jobId);
          ps.setInt(2, size);
          ps.setLong(3, (long) page * size);
        });
  }

  /** How many triggers of the job the history holds (what {@link #recentTriggers} pages over). */
  public long countTriggers(String jobId) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT count(*) FROM kairos_trigger WHERE job_id = ?")) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** One trigger by id, or empty when PostgreSQL has no row for it (yet, or any more). */
  public Optional<TriggerRecord> trigger(String triggerId) throws SQLException {
    List<TriggerRecord> rows =
        query(
            "SELECT " + COLUMNS + " FROM kairos_trigger WHERE trigger_id = ?",
            ps -> ps.setString(1, triggerId));
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  /**
   * A trigger's handler log lines after sequence number {@code afterSeq}, in order, at most {@code
   * limit} (the primary key serves it).
   */
  public List<LogLine> logLines(String triggerId, long afterSeq, int limit) throws SQLException {
    checkPage(0, limit);
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT seq, ts_ms, level, text FROM kairos_trigger_log"
                    + " WHERE trigger_id = ? AND seq > ? ORDER BY seq LIMIT ?")) {
      ps.setString(1, triggerId);
      ps.setLong(2, afterSeq);
      ps.setInt(3, limit);
      List<LogLine> lines = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          lines.add(new LogLine(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4)));
        }
      }
      return lines;
    }
  }

  /** Failed triggers (any job) scheduled in [fromMs, toMs), oldest first, at most {@code limit}. */
  public List<TriggerRecord> failures(long fromMs, long toMs, int limit) throws SQLException {
    checkPage(0, limit);
    return query(
        "SELECT "
            + COLUMNS
            + " FROM kairos_trigger WHERE state IN "
            + FAILURE_STATES
            + " AND fire_ms >= ? AND fire_ms < ? ORDER BY fire_ms, trigger_id LIMIT ?",
        ps -> {
          ps.setLong(1, fromMs);
          ps.setLong(2, toMs);
          ps.setInt(3, limit);
        });
  }

  /**
   * Recomputes the report of one UTC day (per job and overall) from the trigger rows; idempotent.
   *
   * @return the number of report rows written
   */
  public int refreshDailyReport(LocalDate day) throws SQLException {
    long from = day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    long to = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    String sql =
        """
        INSERT INTO kairos_daily_report AS r (day, job_id, success_count, failure_count,
            running_count, other_count, refreshed_at)
        SELECT ?, COALESCE(job_id, '*'),
            count(*) FILTER (WHERE state = 'SUCCESS'),
            count(*) FILTER (WHERE state IN %s),
            count(*) FILTER (WHERE state_rank < 3),
            count(*) FILTER (WHERE state_rank = 3 AND state <> 'SUCCESS'
                             AND state NOT IN %s),
            now()
        FROM kairos_trigger WHERE fire_ms >= ? AND fire_ms < ?
        GROUP BY GROUPING SETS ((job_id), ())
        ON CONFLICT (day, job_id) DO UPDATE SET success_count = EXCLUDED.success_count,
            failure_count = EXCLUDED.failure_count, running_count = EXCLUDED.running_count,
            other_count = EXCLUDED.other_count, refreshed_at = now()
        """
            .formatted(FAILURE_STATES, FAILURE_STATES);
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setDate(1, Date.valueOf(day));
      ps.setLong(2, from);
      ps.setLong(3, to);
      return ps.executeUpdate();
    }
  }

  /** The report rows of one day: per job, and the overall row with job id "*". */
  public List<DailyCount> dailyReport(LocalDate day) throws SQLException {
    List<DailyCount> counts = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT job_id, success_count, failure_count, running_count, other_count"
                    + " FROM kairos_daily_report WHERE day = ? ORDER BY job_id")) {
      ps.setDate(1, Date.valueOf(day));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          counts.add(
              new DailyCount(
                  day,
                  rs.getString(1),
                  rs.getLong(2),
                  rs.getLong(3),
                  rs.getLong(4),
                  rs.getLong(5)));
        }
      }
    }
    return counts;
  }

  private interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  private List<TriggerRecord> query(String sql, Binder binder) throws SQLException {
    List<TriggerRecord> records = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          records.add(
              new TriggerRecord(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getObject(3, Long.class),
                  rs.getString(4),
                  rs.getObject(5, Integer.class),
                  rs.getString(6),
                  rs.getObject(7, Long.class),
                  rs.getString(8),
                  rs.getString(9),
                  rs.getString(10),
                  rs.getObject(11, Long.class),
                  rs.getObject(12, Long.class),
                  rs.getObject(13, Long.class),
                  rs.getObject(14, Long.class)));
        }
      }
    }
    return records;
  }

  private static void checkPage(int page, int size) {
    if (page < 0 || size < 1 || size > MAX_PAGE_SIZE) {
      throw new IllegalArgumentException(
          "page must be >= 0 and size in 1.." + MAX_PAGE_SIZE + " but were " + page + ", " + size);
    }
  }
}
