package dev.kairos.migrate.xxljob.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns rows keyed by column name (a dump's INSERT or a JDBC result set, both read as text) into
 * the xxl-job records. Column names are matched case-insensitively; a column the schema requires is
 * an error naming the table, the row's id and the column.
 */
public final class XxlRows {

  public static final String GROUP_TABLE = "xxl_job_group";
  public static final String JOB_TABLE = "xxl_job_info";

  /** The columns the importer reads, per table; every other column is ignored. */
  private static final Map<String, Set<String>> READ =
      Map.of(
          GROUP_TABLE,
          Set.of("id", "app_name", "title"),
          JOB_TABLE,
          Set.of(
              "id",
              "job_group",
              "job_desc",
              "author",
              "alarm_email",
              "schedule_type",
              "job_cron",
              "schedule_conf",
              "misfire_strategy",
              "executor_route_strategy",
              "executor_handler",
              "executor_param",
              "executor_block_strategy",
              "executor_timeout",
              "executor_fail_retry_count",
              "glue_type",
              "glue_source",
              "child_jobid",
              "trigger_status"));

  private XxlRows() {}

  /** Whether the importer reads this column of this table (names in lower case). */
  public static boolean reads(String table, String column) {
    return READ.getOrDefault(table, Set.of()).contains(column);
  }

  public static List<XxlJobGroup> groups(List<Map<String, String>> rows) {
    List<XxlJobGroup> groups = new ArrayList<>(rows.size());
    for (Map<String, String> raw : rows) {
      Row row = new Row(GROUP_TABLE, raw);
      groups.add(new XxlJobGroup(row.integer("id"), row.required("app_name"), row.text("title")));
    }
    return groups;
  }

  public static List<XxlJobInfo> jobs(List<Map<String, String>> rows) {
    List<XxlJobInfo> jobs = new ArrayList<>(rows.size());
    for (Map<String, String> raw : rows) {
      Row row = new Row(JOB_TABLE, raw);
      // xxl-job before 2.3 has job_cron and no schedule_type: every job was a cron job.
      boolean legacy = !row.has("schedule_type") && row.has("job_cron");
      jobs.add(
          new XxlJobInfo(
              row.integer("id"),
              row.integer("job_group"),
              row.text("job_desc"),
              row.text("author"),
              row.text("alarm_email"),
              legacy ? "CRON" : row.required("schedule_type"),
              legacy ? row.text("job_cron") : row.text("schedule_conf"),
              row.text("misfire_strategy"),
              row.text("executor_route_strategy"),
              row.text("executor_handler"),
              row.text("executor_param"),
              row.text("executor_block_strategy"),
              row.integerOr("executor_timeout", 0),
              row.integerOr("executor_fail_retry_count", 0),
              row.text("glue_type"),
              row.text("glue_source"),
              row.text("child_jobid"),
              row.integerOr("trigger_status", 0)));
    }
    return jobs;
  }

  /** One row with lower-cased column names. */
  private static final class Row {
    private final String table;
    private final Map<String, String> values = new java.util.HashMap<>();

    Row(String table, Map<String, String> raw) {
      this.table = table;
      raw.forEach((k, v) -> values.put(k.toLowerCase(Locale.ROOT), v));
    }

    boolean has(String column) {
      return values.containsKey(column);
    }

    String text(String column) {
      return values.get(column);
    }

    String required(String column) {
      if (!has(column)) {
        throw new XxlSourceException(table + " has no column " + column + " (row " + where() + ")");
      }
      String value = values.get(column);
      if (value == null) {
        throw new XxlSourceException(table + " row " + where() + ": " + column + " is NULL");
      }
      return value;
    }

    int integer(String column) {
      return parse(column, required(column));
    }

    int integerOr(String column, int absent) {
      String value = values.get(column);
      return value == null ? absent : parse(column, value);
    }

    private int parse(String column, String value) {
      // A driver reads a TINYINT(1) column (trigger_status altered to it) as a boolean.
      if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
        return value.equalsIgnoreCase("true") ? 1 : 0;
      }
      try {
        return Integer.parseInt(value.strip());
      } catch (NumberFormatException e) {
        throw new XxlSourceException(
            table + " row " + where() + ": " + column + " is not a number: '" + value + "'");
      }
    }

    private String where() {
      String id = values.get("id");
      return id == null ? "?" : "id=" + id;
    }
  }
}
