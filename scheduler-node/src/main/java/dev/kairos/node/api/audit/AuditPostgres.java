package dev.kairos.node.api.audit;

import dev.kairos.audit.AuditRetention;
import dev.kairos.audit.AuditSchema;
import dev.kairos.audit.AuditSync;
import dev.kairos.audit.AuditTable;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.time.KairosClock;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.sync.event.StreamId;
import dev.kairos.sync.worker.SchemaMigrator;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL side of the audit trail on this node: the consumer that copies the stream into
 * {@code kairos_audit}, the retention, and the reads of the API, which answer {@code 503
 * postgres-unavailable} when there is no DataSource or PostgreSQL does not answer, like the history
 * API. Without a DataSource nothing runs: entries wait in the stream, up to its cap.
 */
final class AuditPostgres implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(AuditPostgres.class);

  private final AuditSchema schema;
  private final AuditTable table;
  private final AuditSync sync;
  private final AuditRetention retention;

  /**
   * @param dataSource the node's PostgreSQL, or null for none
   */
  AuditPostgres(
      DataSource dataSource,
      KairosRedis redis,
      KairosClock clock,
      String consumer,
      AuditProperties properties,
      MeterRegistry meters) {
    if (dataSource == null) {
      schema = null;
      table = null;
      sync = null;
      retention = null;
      return;
    }
    schema = new AuditSchema(new SchemaMigrator(dataSource));
    table = new AuditTable(dataSource);
    sync =
        new AuditSync(
            redis,
            schema,
            table,
            new AuditSync.Settings(
                consumer,
                properties.getBatchSize(),
                properties.getPollInterval(),
                properties.getClaimIdle(),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30)),
            meters);
    retention =
        new AuditRetention(
            schema,
            table,
            clock,
            properties.getRetention(),
            properties.getRetentionInterval(),
            AuditRetention.DEFAULT_BATCH);
  }

  void start() {
    if (sync == null) {
      log.warn(
          "the audit trail has no PostgreSQL (kairos.audit.enabled=false, or no DataSource):"
              + " nothing copies the audit stream on this node");
      return;
    }
    sync.start();
    retention.start();
  }

  /** A page of the trail, newest first; 503 when PostgreSQL cannot be asked. */
  AuditTable.Page page(AuditTable.Filter filter, StreamId before, int limit) {
    if (table == null) {
      throw new ApiProblemException(
          ProblemType.POSTGRES_UNAVAILABLE,
          "this node has no audit table (kairos.audit.enabled=false, or no DataSource)");
    }
    try {
      schema.ensure(); // a node whose consumer has not reached PostgreSQL yet
      return table.page(filter, before, limit);
    } catch (SQLException e) {
      log.warn("audit read: PostgreSQL unavailable ({})", e.toString());
      throw new ApiProblemException(
          ProblemType.POSTGRES_UNAVAILABLE, "audit log: PostgreSQL did not answer");
    }
  }

  @Override
  public void close() {
    if (retention != null) {
      retention.close();
    }
    if (sync != null) {
      sync.close();
    }
  }
}
