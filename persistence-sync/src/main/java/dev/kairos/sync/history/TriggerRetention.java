package dev.kairos.sync.history;

import dev.kairos.core.lifecycle.PeriodicTask;
import dev.kairos.core.time.KairosClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes trigger rows older than the retention in bounded batches (short transactions, no long
 * lock), and refreshes the daily reports of yesterday and today, on a thread named {@code
 * kairos-sync-retention}. Every node may run it: deletes and report refreshes are idempotent.
 */
public final class TriggerRetention implements AutoCloseable {

  public static final Duration DEFAULT_RETENTION = Duration.ofDays(30);
  public static final Duration MIN_RETENTION = Duration.ofDays(7);
  public static final Duration DEFAULT_INTERVAL = Duration.ofHours(1);
  public static final int DEFAULT_BATCH = 5_000;

  private static final Logger log = LoggerFactory.getLogger(TriggerRetention.class);

  private final DataSource dataSource;
  private final TriggerHistoryQueries queries;
  private final KairosClock clock;
  private final Duration retention;
  private final int batch;
  private final PeriodicTask task;

  public TriggerRetention(
      DataSource dataSource, KairosClock clock, Duration retention, Duration interval, int batch) {
    if (retention.compareTo(MIN_RETENTION) < 0) {
      throw new IllegalArgumentException(
          "retention must be at least " + MIN_RETENTION + " but was " + retention);
    }
    if (batch < 1) {
      throw new IllegalArgumentException("batch must be >= 1 but was " + batch);
    }
    this.dataSource = dataSource;
    this.queries = new TriggerHistoryQueries(dataSource);
    this.clock = clock;
    this.retention = retention;
    this.batch = batch;
    this.task =
        new PeriodicTask(
            "trigger retention",
            "kairos-sync-retention",
            interval,
            this::runOnce,
            e -> log.warn("retention run failed ({}); will keep running", e.toString()));
  }

  /**
   * Deletes every trigger scheduled before now − retention, and those triggers' log lines; returns
   * how many trigger rows went.
   */
  public long purge() throws SQLException {
    long cutoff = clock.nowMs() - retention.toMillis();
    long total = 0;
    String sql =
        "DELETE FROM kairos_trigger WHERE trigger_id IN (SELECT trigger_id FROM kairos_trigger"
            + " WHERE fire_ms < ? ORDER BY fire_ms LIMIT ?)";
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql);
        PreparedStatement logs = c.prepareStatement(DELETE_LOG_LINES)) {
      int deleted;
      do {
        ps.setLong(1, cutoff);
        ps.setInt(2, batch);
        deleted = ps.executeUpdate();
        total += deleted;
      } while (deleted == batch);
      // The triggers' log lines go under the same retention (same key: the scheduled fire time).
      do {
        logs.setLong(1, cutoff);
        logs.setInt(2, batch);
        deleted = logs.executeUpdate();
      } while (deleted == batch);
    }
    return total;
  }

  private static final String DELETE_LOG_LINES =
      "DELETE FROM kairos_trigger_log WHERE ctid IN (SELECT ctid FROM kairos_trigger_log"
          + " WHERE fire_ms < ? LIMIT ?)";

  /** Starts the retention loop: a run now, then one every interval. */
  public void start() {
    task.start();
  }

  private void runOnce() throws SQLException {
    long deleted = purge();
    LocalDate today = LocalDate.ofInstant(Instant.ofEpochMilli(clock.nowMs()), ZoneOffset.UTC);
    queries.refreshDailyReport(today.minusDays(1));
    queries.refreshDailyReport(today);
    if (deleted > 0) {
      log.info("retention deleted {} triggers older than {}", deleted, retention);
    }
  }

  @Override
  public void close() {
    task.close();
  }
}
