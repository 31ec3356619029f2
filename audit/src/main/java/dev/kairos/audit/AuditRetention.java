package dev.kairos.audit;

import dev.kairos.core.lifecycle.PeriodicTask;
import dev.kairos.core.time.KairosClock;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes audit rows of changes older than the retention, in bounded batches (short transactions,
 * no long lock), on a thread named {@code kairos-audit-retention}. Every node may run it: a delete
 * is idempotent.
 */
public final class AuditRetention implements AutoCloseable {

  /** Over a year, so a yearly review finds last year's changes. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(400);

  public static final Duration MIN_RETENTION = Duration.ofDays(1);
  public static final Duration DEFAULT_INTERVAL = Duration.ofHours(1);
  public static final int DEFAULT_BATCH = 5_000;

  private static final Logger log = LoggerFactory.getLogger(AuditRetention.class);

  private final AuditSchema schema;
  private final AuditTable table;
  private final KairosClock clock;
  private final Duration retention;
  private final int batch;
  private final PeriodicTask task;

  public AuditRetention(
      AuditSchema schema,
      AuditTable table,
      KairosClock clock,
      Duration retention,
      Duration interval,
      int batch) {
    if (retention.compareTo(MIN_RETENTION) < 0) {
      throw new IllegalArgumentException(
          "audit retention must be at least " + MIN_RETENTION + " but was " + retention);
    }
    if (batch < 1) {
      throw new IllegalArgumentException("batch must be >= 1 but was " + batch);
    }
    this.schema = Objects.requireNonNull(schema, "schema");
    this.table = Objects.requireNonNull(table, "table");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.retention = retention;
    this.batch = batch;
    this.task =
        new PeriodicTask(
            "audit retention",
            "kairos-audit-retention",
            interval,
            this::runOnce,
            e -> log.warn("audit retention run failed ({}); will keep running", e.toString()));
  }

  /** Deletes every row of a change before now − retention; returns how many went. */
  public long purge() throws SQLException {
    schema.ensure();
    long cutoff = clock.nowMs() - retention.toMillis();
    long total = 0;
    int deleted;
    do {
      deleted = table.deleteBefore(cutoff, batch);
      total += deleted;
    } while (deleted == batch);
    return total;
  }

  /** Starts the purge loop: a purge now, then one every interval. */
  public void start() {
    task.start();
  }

  private void runOnce() throws SQLException {
    long deleted = purge();
    if (deleted > 0) {
      log.info("audit retention deleted {} entries older than {}", deleted, retention);
    }
  }

  @Override
  public void close() {
    task.close();
  }
}
