package dev.kairos.sync.store;

import dev.kairos.core.log.LogLine;
import dev.kairos.core.redis.JobFields;
import dev.kairos.sync.event.SyncEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Applies parsed events to PostgreSQL in one transaction with guarded, idempotent upserts.
 *
 * <p>Plain JDBC rather than JPA: each upsert is {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE},
 * a guard JPA cannot express without a read per row, and plain JDBC needs no EntityManagerFactory
 * (which would touch the database at boot).
 *
 * <ul>
 *   <li>Jobs: an upsert wins only over an older version of the same incarnation (same createdMs),
 *       or over a tombstone older than its creation; a deletion leaves a tombstone with its
 *       version.
 *   <li>Triggers: state only moves to a higher rank; node/term and slot follow the newest stream
 *       entry that carried them; every other field is written once by the scripts and merged with
 *       COALESCE, so no event erases what an earlier one wrote.
 * </ul>
 *
 * <p>Thread-safe (stateless; a connection per call).
 */
public final class SyncStore {

  private static final String UPSERT_JOB =
      """
      INSERT INTO kairos_job AS j (job_id, shard, app, handler, schedule_type, schedule, zone,
          params, routing, block, timeout_ms, retry_count, retry_backoff, misfire,
          misfire_threshold_ms, enabled, schedule_version, version, next_fire_ms, last_fire_ms,
          created_ms, updated_ms, child_job_ids, cron_dialect, description, owner, alarm_emails,
          alarm_webhooks, calendars, lateness_objective, deleted, deleted_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
          ?, FALSE, NULL)
      ON CONFLICT (job_id) DO UPDATE SET
          shard = EXCLUDED.shard, app = EXCLUDED.app, handler = EXCLUDED.handler,
          schedule_type = EXCLUDED.schedule_type, schedule = EXCLUDED.schedule,
          zone = EXCLUDED.zone, params = EXCLUDED.params, routing = EXCLUDED.routing,
          block = EXCLUDED.block, timeout_ms = EXCLUDED.timeout_ms,
          retry_count = EXCLUDED.retry_count, retry_backoff = EXCLUDED.retry_backoff,
          misfire = EXCLUDED.misfire, misfire_threshold_ms = EXCLUDED.misfire_threshold_ms,
          enabled = EXCLUDED.enabled, schedule_version = EXCLUDED.schedule_version,
          version = EXCLUDED.version, next_fire_ms = EXCLUDED.next_fire_ms,
          last_fire_ms = CASE WHEN j.deleted THEN EXCLUDED.last_fire_ms
                              ELSE GREATEST(j.last_fire_ms, EXCLUDED.last_fire_ms) END,
          created_ms = EXCLUDED.created_ms, updated_ms = EXCLUDED.updated_ms,
          child_job_ids = EXCLUDED.child_job_ids, cron_dialect = EXCLUDED.cron_dialect,
          description = EXCLUDED.description, owner = EXCLUDED.owner,
          alarm_emails = EXCLUDED.alarm_emails, alarm_webhooks = EXCLUDED.alarm_webhooks,
          calendars = EXCLUDED.calendars,
          lateness_objective = EXCLUDED.lateness_objective,
          deleted = FALSE, deleted_ms = NULL, synced_at = now()
      WHERE (NOT j.deleted AND (EXCLUDED.created_ms > j.created_ms
                 OR (EXCLUDED.created_ms = j.created_ms AND EXCLUDED.version > j.version)))
         OR (j.deleted AND EXCLUDED.created_ms >= j.deleted_ms)
      """;

  private static final String DELETE_JOB =
      """
      INSERT INTO kairos_job AS j (job_id, shard, schedule_version, version, enabled, deleted,
          deleted_ms)
      VALUES (?, ?, ?, ?, FALSE, TRUE, ?)
      ON CONFLICT (job_id) DO UPDATE SET
          schedule_version = EXCLUDED.schedule_version, version = EXCLUDED.version,
          enabled = FALSE, next_fire_ms = NULL, deleted = TRUE, deleted_ms = EXCLUDED.deleted_ms,
          synced_at = now()
      WHERE (NOT j.deleted AND j.created_ms <= EXCLUDED.deleted_ms AND EXCLUDED.version > j.version)
         OR (j.deleted AND EXCLUDED.deleted_ms > j.deleted_ms)
      """;

  // The claim moved the job's lastFireMs in Redis without a JOB_UPSERTED event.
  private static final String JOB_LAST_FIRE =
      """
      UPDATE kairos_job SET last_fire_ms = GREATEST(last_fire_ms, ?)
      WHERE job_id = ? AND NOT deleted AND (last_fire_ms IS NULL OR last_fire_ms < ?)
      """;

  /**
   * Every trigger row of a batch in one statement: the rows travel as one array per column and
   * {@code unnest} turns them back into rows, so PostgreSQL parses, plans and executes once per
   * batch instead of once per row. A statement may not touch one row twice, so a batch holding two
   * events of one trigger (a late result after its end, a replay) writes in rounds.
   */
  private static final String UPSERT_TRIGGERS =
      """
      INSERT INTO kairos_trigger AS t (trigger_id, job_id, shard, fire_ms, state, state_rank,
          attempt, schedule_version, node, term, executor, slot, message, claimed_ms,
          dispatched_ms, started_ms, ended_ms, late_ended_ms, late_message, node_pos_ms,
          node_pos_seq, slot_pos_ms, slot_pos_seq, last_stream_ms, last_stream_seq)
      SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::bigint[], ?::text[],
          ?::smallint[], ?::int[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::text[],
          ?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[],
          ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[])
      ON CONFLICT (trigger_id) DO UPDATE SET
          state = CASE WHEN EXCLUDED.state_rank > t.state_rank THEN EXCLUDED.state ELSE t.state END,
          state_rank = GREATEST(t.state_rank, EXCLUDED.state_rank),
      """
          + positioned("node", "node")
          + positioned("term", "node")
          + positioned("slot", "slot")
          + positions("node")
          + positions("slot")
          + once("fire_ms")
          + once("attempt")
          + once("schedule_version")
          + once("executor")
          + once("message")
          + once("claimed_ms")
          + once("dispatched_ms")
          + once("started_ms")
          + once("ended_ms")
          + once("late_ended_ms")
          + once("late_message")
          + """
              last_stream_ms = CASE WHEN %1$s THEN EXCLUDED.last_stream_ms ELSE t.last_stream_ms END,
              last_stream_seq = CASE WHEN %1$s THEN EXCLUDED.last_stream_seq ELSE t.last_stream_seq END,
              synced_at = now()
          """
              .formatted(newer("last_stream"));

  /** Whether the incoming entry is newer than the row's position {@code pos}. */
  private static String newer(String pos) {
    return "(EXCLUDED.last_stream_ms, EXCLUDED.last_stream_seq) > (t.%1$s_ms, t.%1$s_seq)"
        .formatted(pos);
  }

  /** The incoming entry carries {@code pos}'s fields and is newer than where they came from. */
  private static String replaces(String pos) {
    return "(EXCLUDED.%1$s_pos_ms IS NOT NULL AND (t.%1$s_pos_ms IS NULL OR %2$s))"
        .formatted(pos, newer(pos + "_pos"));
  }

  private static String positioned(String column, String pos) {
    return "    %1$s = CASE WHEN %2$s THEN EXCLUDED.%1$s ELSE t.%1$s END,\n"
        .formatted(column, replaces(pos));
  }

  private static String positions(String pos) {
    return ("    %1$s_pos_ms = CASE WHEN %2$s THEN EXCLUDED.%1$s_pos_ms ELSE t.%1$s_pos_ms END,\n"
            + "    %1$s_pos_seq = CASE WHEN %2$s THEN EXCLUDED.%1$s_pos_seq ELSE t.%1$s_pos_seq"
            + " END,\n")
        .formatted(pos, replaces(pos));
  }

  /** Written once by the scripts: the first value seen stays. */
  private static String once(String column) {
    return "    %1$s = COALESCE(t.%1$s, EXCLUDED.%1$s),\n".formatted(column);
  }

  /** A line is written once; a replayed TRIGGER_LOG event changes nothing. */
  private static final String INSERT_LOG_LINE =
      """
      INSERT INTO kairos_trigger_log (trigger_id, seq, fire_ms, ts_ms, level, text)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (trigger_id, seq) DO NOTHING
      """;

  private final DataSource dataSource;

  public SyncStore(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /** Applies {@code events} (in stream order per shard) in one transaction; all or nothing. */
  public void apply(List<SyncEvent> events) throws SQLException {
    if (events.isEmpty()) {
      return;
    }
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement upsertJob = c.prepareStatement(UPSERT_JOB);
          PreparedStatement deleteJob = c.prepareStatement(DELETE_JOB);
          PreparedStatement lastFire = c.prepareStatement(JOB_LAST_FIRE);
          PreparedStatement upsertTriggers = c.prepareStatement(UPSERT_TRIGGERS);
          PreparedStatement logLine = c.prepareStatement(INSERT_LOG_LINE)) {
        // Jobs first, then triggers: each statement kind is one JDBC batch (the triggers one
        // statement per round), and the order between a job row and its triggers' rows does not
        // matter (no foreign key).
        List<List<SyncEvent.TriggerChange>> triggerRounds = new ArrayList<>();
        Map<String, Integer> roundsOf = new HashMap<>();
        for (SyncEvent event : events) {
          if (event instanceof SyncEvent.JobUpserted e) {
            bindJob(upsertJob, e);
          } else if (event instanceof SyncEvent.JobDeleted e) {
            bindDelete(deleteJob, e);
          } else if (event instanceof SyncEvent.TriggerChange e) {
            int round = roundsOf.merge(e.triggerId(), 1, Integer::sum) - 1;
            if (round == triggerRounds.size()) {
              triggerRounds.add(new ArrayList<>());
            }
            triggerRounds.get(round).add(e);
            // Only versions before one event per trigger wrote a CLAIMED event; today the
            // rebuild takes a job's last fire from its triggers' rows.
            if ("CLAIMED".equals(e.state()) && e.fireMs() != null) {
              lastFire.setLong(1, e.fireMs());
              setText(lastFire, 2, e.jobId());
              lastFire.setLong(3, e.fireMs());
              lastFire.addBatch();
            }
          } else if (event instanceof SyncEvent.TriggerLog e) {
            bindLog(logLine, e);
          }
          // Unknown: counted and acknowledged by the worker; nothing to write.
        }
        upsertJob.executeBatch();
        deleteJob.executeBatch();
        for (List<SyncEvent.TriggerChange> round : triggerRounds) {
          bindTriggers(c, upsertTriggers, round);
          upsertTriggers.executeUpdate();
        }
        lastFire.executeBatch();
        logLine.executeBatch();
        c.commit();
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c, e);
        throw e;
      }
    }
  }

  private static void bindLog(PreparedStatement ps, SyncEvent.TriggerLog e) throws SQLException {
    for (LogLine line : e.lines()) {
      setText(ps, 1, e.triggerId());
      ps.setLong(2, line.seq());
      ps.setLong(3, e.fireMs());
      ps.setLong(4, line.tsMs());
      setText(ps, 5, line.level());
      setText(ps, 6, line.text());
      ps.addBatch();
    }
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static void bindJob(PreparedStatement ps, SyncEvent.JobUpserted e) throws SQLException {
    Map<String, String> h = e.hash();
    int i = 1;
    setText(ps, i++, h.get(JobFields.ID));
    ps.setInt(i++, e.shard());
    setText(ps, i++, h.get(JobFields.APP));
    setText(ps, i++, h.get(JobFields.HANDLER));
    setText(ps, i++, h.get(JobFields.SCHEDULE_TYPE));
    setText(ps, i++, h.get(JobFields.SCHEDULE));
    setText(ps, i++, h.get(JobFields.ZONE));
    setText(ps, i++, h.get(JobFields.PARAMS));
    setText(ps, i++, h.get(JobFields.ROUTING));
    setText(ps, i++, h.get(JobFields.BLOCK));
    setLong(ps, i++, h.get(JobFields.TIMEOUT_MS));
    setInt(ps, i++, h.get(JobFields.RETRY_COUNT));
    setText(ps, i++, h.get(JobFields.RETRY_BACKOFF));
    setText(ps, i++, h.get(JobFields.MISFIRE));
    setLong(ps, i++, h.get(JobFields.MISFIRE_THRESHOLD_MS));
    String enabled = h.get(JobFields.ENABLED);
    if (enabled == null) {
      ps.setNull(i++, Types.BOOLEAN);
    } else {
      ps.setBoolean(i++, Boolean.parseBoolean(enabled));
    }
    setLong(ps, i++, h.getOrDefault(JobFields.SCHEDULE_VERSION, "0"));
    setLong(ps, i++, h.get(JobFields.VERSION));
    setLong(ps, i++, h.get(JobFields.NEXT_FIRE_MS));
    setLong(ps, i++, h.get(JobFields.LAST_FIRE_MS));
    setLong(ps, i++, h.getOrDefault(JobFields.CREATED_MS, "0"));
    setLong(ps, i++, h.get(JobFields.UPDATED_MS));
    setText(ps, i++, h.get(JobFields.CHILD_JOB_IDS));
    setText(ps, i++, h.get(JobFields.CRON_DIALECT));
    setText(ps, i++, h.get(JobFields.DESCRIPTION));
    setText(ps, i++, h.get(JobFields.OWNER));
    setText(ps, i++, h.get(JobFields.ALARM_EMAILS));
    setText(ps, i++, h.get(JobFields.ALARM_WEBHOOKS));
    setText(ps, i++, h.get(JobFields.CALENDARS));
    setText(ps, i++, h.get(JobFields.LATENESS_OBJECTIVE));
    ps.addBatch();
  }

  private static void bindDelete(PreparedStatement ps, SyncEvent.JobDeleted e) throws SQLException {
    setText(ps, 1, e.jobId());
    ps.setInt(2, e.shard());
    ps.setLong(3, e.scheduleVersion());
    ps.setLong(4, e.version());
    ps.setLong(5, e.deletedMs());
    ps.addBatch();
  }

  /** Binds one round of trigger rows as the statement's 25 column arrays. */
  private static void bindTriggers(
      Connection c, PreparedStatement ps, List<SyncEvent.TriggerChange> rows) throws SQLException {
    int n = rows.size();
    String[] triggerId = new String[n];
    String[] jobId = new String[n];
    Integer[] shard = new Integer[n];
    Long[] fireMs = new Long[n];
    String[] state = new String[n];
    Short[] stateRank = new Short[n];
    Integer[] attempt = new Integer[n];
    Long[] scheduleVersion = new Long[n];
    String[] node = new String[n];
    Long[] term = new Long[n];
    String[] executor = new String[n];
    String[] slot = new String[n];
    String[] message = new String[n];
    Long[] claimed = new Long[n];
    Long[] dispatched = new Long[n];
    Long[] started = new Long[n];
    Long[] ended = new Long[n];
    Long[] lateEnded = new Long[n];
    String[] lateMessage = new String[n];
    Long[] nodePosMs = new Long[n];
    Long[] nodePosSeq = new Long[n];
    Long[] slotPosMs = new Long[n];
    Long[] slotPosSeq = new Long[n];
    Long[] streamMs = new Long[n];
    Long[] streamSeq = new Long[n];
    for (int i = 0; i < n; i++) {
      SyncEvent.TriggerChange e = rows.get(i);
      triggerId[i] = text(e.triggerId());
      jobId[i] = text(e.jobId());
      shard[i] = e.shard();
      fireMs[i] = e.fireMs();
      state[i] = text(e.state());
      stateRank[i] = (short) e.stateRank();
      attempt[i] = e.attempt();
      scheduleVersion[i] = e.scheduleVersion();
      node[i] = text(e.node());
      term[i] = e.term();
      executor[i] = text(e.executor());
      slot[i] = text(e.slot());
      message[i] = text(e.message());
      claimed[i] = e.claimedMs();
      dispatched[i] = e.dispatchedMs();
      started[i] = e.startedMs();
      ended[i] = e.endedMs();
      lateEnded[i] = e.lateEndedMs();
      lateMessage[i] = text(e.lateMessage());
      boolean nodeCarried = e.node() != null || e.term() != null;
      nodePosMs[i] = nodeCarried ? e.id().ms() : null;
      nodePosSeq[i] = nodeCarried ? e.id().seq() : null;
      slotPosMs[i] = e.slot() != null ? e.id().ms() : null;
      slotPosSeq[i] = e.slot() != null ? e.id().seq() : null;
      streamMs[i] = e.id().ms();
      streamSeq[i] = e.id().seq();
    }
    Object[][] columns = {
      triggerId,
      jobId,
      shard,
      fireMs,
      state,
      stateRank,
      attempt,
      scheduleVersion,
      node,
      term,
      executor,
      slot,
      message,
      claimed,
      dispatched,
      started,
      ended,
      lateEnded,
      lateMessage,
      nodePosMs,
      nodePosSeq,
      slotPosMs,
      slotPosSeq,
      streamMs,
      streamSeq
    };
    String[] types = {
      "text", "text", "int4", "int8", "text", "int2", "int4", "int8", "text", "int8", "text",
      "text", "text", "int8", "int8", "int8", "int8", "int8", "text", "int8", "int8", "int8",
      "int8", "int8", "int8"
    };
    for (int i = 0; i < columns.length; i++) {
      ps.setArray(i + 1, c.createArrayOf(types[i], columns[i]));
    }
  }

  private static void setLong(PreparedStatement ps, int i, Long value) throws SQLException {
    if (value == null) {
      ps.setNull(i, Types.BIGINT);
    } else {
      ps.setLong(i, value);
    }
  }

  private static void setLong(PreparedStatement ps, int i, String value) throws SQLException {
    setLong(ps, i, value == null || value.isEmpty() ? null : Long.valueOf(value));
  }

  private static void setInt(PreparedStatement ps, int i, String value) throws SQLException {
    if (value == null || value.isEmpty()) {
      ps.setNull(i, Types.INTEGER);
    } else {
      ps.setInt(i, Integer.parseInt(value));
    }
  }

  /** A text value as PostgreSQL can hold it (see {@link #setText}). */
  private static String text(String value) {
    return value == null || value.indexOf('\u0000') < 0 ? value : value.replace('\u0000', '\uFFFD');
  }

  /**
   * Binds a text value. PostgreSQL's text cannot hold U+0000, which Redis, the API (a JSON string
   * may carry it) and a handler's result message can: it becomes U+FFFD in the history, so one such
   * value never fails every batch it is in.
   */
  private static void setText(PreparedStatement ps, int index, String value) throws SQLException {
    ps.setString(
        index,
        value == null || value.indexOf('\u0000') < 0 ? value : value.replace('\u0000', '\uFFFD'));
  }
}
