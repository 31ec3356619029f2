package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/** Field-by-field comparison of Redis hashes (the truth) with their PostgreSQL rows. */
final class RedisVsPostgres {

  /** Redis job hash field -> kairos_job column. nextFireMs is left out: see the report. */
  static final Map<String, String> JOB_COLUMNS = new LinkedHashMap<>();

  /** Redis trigger hash field -> kairos_trigger column. */
  static final Map<String, String> TRIGGER_COLUMNS = new LinkedHashMap<>();

  // Not lastFireMs: a claim writes no event, so kairos_job.last_fire_ms is the job's as of its last
  // write; the rebuild takes a job's last fire from its triggers' rows (RedisRebuilderIT).
  static {
    String[][] job = {
      {"app", "app"},
      {"handler", "handler"},
      {"scheduleType", "schedule_type"},
      {"schedule", "schedule"},
      {"zone", "zone"},
      {"cronDialect", "cron_dialect"},
      {"params", "params"},
      {"routing", "routing"},
      {"block", "block"},
      {"timeoutMs", "timeout_ms"},
      {"retryCount", "retry_count"},
      {"retryBackoff", "retry_backoff"},
      {"misfire", "misfire"},
      {"misfireThresholdMs", "misfire_threshold_ms"},
      {"enabled", "enabled"},
      {"scheduleVersion", "schedule_version"},
      {"version", "version"},
      {"createdMs", "created_ms"},
      {"updatedMs", "updated_ms"},
      {"childJobIds", "child_job_ids"},
      {"description", "description"},
      {"owner", "owner"},
      {"alarmEmails", "alarm_emails"},
      {"alarmWebhooks", "alarm_webhooks"},
      {"calendars", "calendars"}
    };
    for (String[] p : job) {
      JOB_COLUMNS.put(p[0], p[1]);
    }
    String[][] trigger = {
      {"jobId", "job_id"}, {"fireMs", "fire_ms"}, {"state", "state"},
      {"scheduleVersion", "schedule_version"}, {"node", "node"}, {"term", "term"},
      {"claimedMs", "claimed_ms"}, {"attempt", "attempt"}, {"dispatchedMs", "dispatched_ms"},
      {"slot", "slot"}, {"executor", "executor"}, {"startedMs", "started_ms"},
      {"endedMs", "ended_ms"}, {"message", "message"}
    };
    for (String[] p : trigger) {
      TRIGGER_COLUMNS.put(p[0], p[1]);
    }
  }

  private final KairosRedis redis;
  private final RedisKeys keys;
  private final DataSource dataSource;

  RedisVsPostgres(KairosRedis redis, RedisKeys keys, DataSource dataSource) {
    this.redis = redis;
    this.keys = keys;
    this.dataSource = dataSource;
  }

  Map<String, Map<String, String>> rows(String table, String idColumn) {
    Map<String, Map<String, String>> rows = new HashMap<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT * FROM " + table);
        ResultSet rs = ps.executeQuery()) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        Map<String, String> row = new HashMap<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.put(md.getColumnName(i), rs.getString(i));
        }
        rows.put(rs.getString(idColumn), row);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }

  long count(String sql) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every live job equals its row; every id in {@code deleted} is a tombstone. */
  void assertJobsEqual(Collection<String> live, Collection<String> deleted) {
    Map<String, Map<String, String>> rows = rows("kairos_job", "job_id");
    assertThat(rows).hasSize(live.size() + deleted.size());
    for (String id : live) {
      Map<String, String> hash = redis.sync().hgetall(RedisKeys.job(keys.shardOf(id), id));
      Map<String, String> row = rows.get(id);
      assertThat(row).as("row of job %s", id).isNotNull();
      assertThat(row.get("deleted")).as("job %s deleted", id).isEqualTo("f");
      assertThat(row.get("shard")).isEqualTo(Integer.toString(keys.shardOf(id)));
      JOB_COLUMNS.forEach(
          (field, column) ->
              assertThat(normalise(row.get(column)))
                  .as("job %s field %s", id, field)
                  .isEqualTo(hash.get(field)));
    }
    for (String id : deleted) {
      assertThat(redis.sync().exists(RedisKeys.job(keys.shardOf(id), id))).isZero();
      assertThat(rows.get(id).get("deleted")).as("job %s is a tombstone", id).isEqualTo("t");
    }
  }

  /** Every trigger hash equals its row, and PostgreSQL has no other trigger. */
  /**
   * PostgreSQL holds a row for exactly {@code all}, and each of {@code triggerIds} (whose records
   * Redis still holds) equals its record field by field.
   */
  void assertTriggersEqual(Collection<String> triggerIds, Collection<String> all) {
    Map<String, Map<String, String>> rows = rows("kairos_trigger", "trigger_id");
    List<String> mismatches = new ArrayList<>();
    assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(all);
    for (String id : triggerIds) {
      String jobId = id.substring(0, id.indexOf(':'));
      Map<String, String> hash = redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(jobId), id));
      assertThat(hash).as("trigger hash %s", id).isNotEmpty();
      Map<String, String> row = rows.get(id);
      TRIGGER_COLUMNS.forEach(
          (field, column) -> {
            String expected = hash.get(field);
            String actual = normalise(row.get(column));
            if (expected == null ? actual != null : !expected.equals(actual)) {
              mismatches.add(id + "." + field + ": redis=" + expected + " pg=" + actual);
            }
          });
    }
    assertThat(mismatches).as("trigger fields that differ").isEmpty();
  }

  /**
   * Whether every one of {@code triggerIds} is a tombstone now: no record, SUCCESS in its bucket.
   */
  boolean compacted(Collection<String> triggerIds) {
    for (String id : triggerIds) {
      TriggerId trigger = new TriggerId(id);
      int shard = keys.shardOf(trigger.jobId());
      if (redis.sync().exists(RedisKeys.trigger(shard, id)) != 0
          || !"SUCCESS".equals(redis.sync().hget(RedisKeys.ended(shard, trigger.fireMs()), id))) {
        return false;
      }
    }
    return true;
  }

  /** The history rows of compacted successes hold every stage of their run. */
  void assertSucceededRows(Collection<String> triggerIds) {
    Map<String, Map<String, String>> rows = rows("kairos_trigger", "trigger_id");
    for (String id : triggerIds) {
      assertThat(rows.get(id))
          .as("history of %s", id)
          .containsEntry("state", "SUCCESS")
          .containsEntry("message", "ok");
      for (String column :
          List.of("claimed_ms", "dispatched_ms", "started_ms", "ended_ms", "executor", "node")) {
        assertThat(rows.get(id).get(column)).as("%s of %s", column, id).isNotNull();
      }
    }
  }

  private static String normalise(String pg) {
    if ("t".equals(pg)) {
      return "true";
    }
    if ("f".equals(pg)) {
      return "false";
    }
    return pg;
  }
}
