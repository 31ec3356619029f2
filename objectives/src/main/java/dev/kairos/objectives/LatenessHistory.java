package dev.kairos.objectives;

import dev.kairos.core.alarm.AlarmRecipients;
import dev.kairos.core.error.KairosException;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.model.LatenessObjective;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads objectives and start lateness from the PostgreSQL history that persistence-sync writes
 * ({@code kairos_job.lateness_objective}, {@code kairos_trigger.started_ms - fire_ms}). The history
 * is the cluster's only record of every trigger's start, whichever node consumed it, so the
 * objective is judged on all fires of a job, not on one node's share of them.
 */
public final class LatenessHistory {

  private static final Logger log = LoggerFactory.getLogger(LatenessHistory.class);

  private static final String OBJECTIVES =
      """
      SELECT job_id, COALESCE(app, '') AS app, lateness_objective, alarm_emails, alarm_webhooks
      FROM kairos_job
      WHERE lateness_objective IS NOT NULL AND lateness_objective <> '' AND NOT deleted
        AND enabled IS NOT FALSE
      ORDER BY job_id
      LIMIT ?
      """;

  /**
   * First attempts of scheduled fires (and broadcast shards of them): their id is the job id and
   * the fire time, the form the rebuild also uses. Retries, manual, child and workflow triggers are
   * no scheduled fire. A fire that ended without a start counts as unboundedly late; one nobody
   * meant to start (skipped by a calendar, discarded by the block strategy, cancelled, dropped
   * after a schedule change) does not count at all.
   */
  private static final String SAMPLE =
      """
      SELECT count(*) AS fires,
             count(*) FILTER (WHERE started_ms IS NULL) AS never_started,
             percentile_disc(?) WITHIN GROUP (
                 ORDER BY CASE WHEN started_ms IS NULL THEN 9223372036854775807
                               ELSE GREATEST(started_ms - fire_ms, 0) END)
               AS observed
      FROM kairos_trigger
      WHERE job_id = ? AND fire_ms >= ? AND fire_ms <= ?
        AND state IN ('SUCCESS', 'FAIL', 'TIMEOUT', 'LOST', 'EXPIRED', 'NO_EXECUTOR')
        AND (trigger_id = job_id || ':' || fire_ms
             OR (trigger_id LIKE job_id || ':' || fire_ms || '#%' AND trigger_id NOT LIKE '%/r%'))
      """;

  private final DataSource dataSource;

  public LatenessHistory(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /**
   * The enabled jobs that declare an objective, in id order, at most {@code limit}; a row whose
   * objective cannot be read is logged and left out.
   */
  public List<JobObjective> objectives(int limit) {
    List<JobObjective> jobs = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(OBJECTIVES)) {
      ps.setInt(1, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String jobId = rs.getString("job_id");
          String app = rs.getString("app");
          try {
            Optional<LatenessObjective> objective =
                LatenessObjective.decode(rs.getString("lateness_objective"));
            AlarmRecipients recipients =
                new AlarmRecipients(
                    JobHash.decodeLines(rs.getString("alarm_emails")),
                    JobHash.decodeLines(rs.getString("alarm_webhooks")));
            objective.ifPresent(o -> jobs.add(new JobObjective(jobId, app, o, recipients)));
          } catch (IllegalArgumentException e) {
            log.warn("jobId={} lateness objective not read: {}", jobId, e.getMessage());
          }
        }
      }
    } catch (SQLException e) {
      throw new KairosException("reading the jobs with lateness objectives failed", e);
    }
    return jobs;
  }

  /** The job's fires in the objective's window ending at {@code nowMs}. */
  public LatenessSample sample(String jobId, LatenessObjective objective, long nowMs) {
    long from = nowMs - objective.windowMs();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SAMPLE)) {
      ps.setDouble(1, objective.percentile() / 100.0);
      ps.setString(2, jobId);
      ps.setLong(3, from);
      ps.setLong(4, nowMs);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long fires = rs.getLong("fires");
        long neverStarted = rs.getLong("never_started");
        long observed = rs.getLong("observed");
        OptionalLong value =
            rs.wasNull() || observed == Long.MAX_VALUE
                ? OptionalLong.empty()
                : OptionalLong.of(observed);
        return new LatenessSample(from, nowMs, fires, neverStarted, value);
      }
    } catch (SQLException e) {
      throw new KairosException("reading the start lateness of job " + jobId + " failed", e);
    }
  }
}
