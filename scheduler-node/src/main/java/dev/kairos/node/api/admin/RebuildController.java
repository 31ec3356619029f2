package dev.kairos.node.api.admin;

import dev.kairos.audit.AuditAction;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.node.api.audit.AuditTrail;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import dev.kairos.sync.rebuild.RebuildReport;
import dev.kairos.sync.rebuild.RedisRebuilder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Runs persistence-sync's rebuild on demand (issue #3): every shard of Redis without its
 * "initialised" marker (a master that lost its data) gets its jobs back from PostgreSQL; jobs
 * present in Redis are left alone (Redis stays the truth). Answers 503 when PostgreSQL does not
 * answer, before anything is touched.
 */
@RestController
class RebuildController {

  private static final Logger log = LoggerFactory.getLogger(RebuildController.class);
  private static final int VALID_TIMEOUT_SECONDS = 2;

  /** What one rebuild did, and how many shards were already initialised. */
  record RebuildResult(int shards, List<Integer> rebuiltShards, int restoredJobs, int keptJobs) {}

  private final ObjectProvider<RedisRebuilder> rebuilder;
  private final ObjectProvider<DataSource> dataSource;
  private final RedisKeys keys;
  private final AuditTrail audit;

  RebuildController(
      ObjectProvider<RedisRebuilder> rebuilder,
      ObjectProvider<DataSource> dataSource,
      RedisKeys keys,
      AuditTrail audit) {
    this.rebuilder = rebuilder;
    this.dataSource = dataSource;
    this.keys = keys;
    this.audit = audit;
  }

  @PostMapping(path = "/api/v1/admin/rebuild", produces = MediaType.APPLICATION_JSON_VALUE)
  RebuildResult rebuild() {
    RedisRebuilder r = rebuilder.getIfAvailable();
    DataSource ds = dataSource.getIfAvailable();
    if (r == null || ds == null) {
      throw new ApiProblemException(
          ProblemType.POSTGRES_UNAVAILABLE, "this node has no PostgreSQL (persistence-sync off)");
    }
    requireReachable(ds);
    try {
      RebuildReport report = r.ensureInitialised(keys.shards());
      audit.action(
          AuditAction.REBUILD_RUN,
          null,
          report.rebuiltShards().size()
              + " shards rebuilt, "
              + report.restoredJobs()
              + " jobs restored");
      return new RebuildResult(
          keys.shards(), report.rebuiltShards(), report.restoredJobs(), report.keptJobs());
    } catch (SQLException e) {
      log.warn("rebuild failed: PostgreSQL unavailable ({})", e.toString());
      throw unavailable(e);
    }
  }

  private static void requireReachable(DataSource ds) {
    try (Connection c = ds.getConnection()) {
      if (!c.isValid(VALID_TIMEOUT_SECONDS)) {
        throw new SQLException("connection not valid within " + VALID_TIMEOUT_SECONDS + " s");
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  private static ApiProblemException unavailable(SQLException e) {
    return new ApiProblemException(
        ProblemType.POSTGRES_UNAVAILABLE,
        "PostgreSQL did not answer (" + e.getMessage() + "); nothing was rebuilt, retry later");
  }
}
