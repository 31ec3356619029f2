package dev.kairos.migrate.xxljob.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.migrate.xxljob.XxlJobMigration;
import dev.kairos.migrate.xxljob.mapping.MappingOptions;
import dev.kairos.migrate.xxljob.report.MigrationReport;
import dev.kairos.migrate.xxljob.report.ReportText;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class SqlDumpReaderTest {

  /** The test dump, read. */
  public static XxlJobTables testDump() throws IOException {
    try (InputStream in =
            SqlDumpReaderTest.class
                .getClassLoader()
                .getResourceAsStream("xxljob/xxl_job-dump.sql");
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      return SqlDumpReader.read(reader, "dump xxl_job-dump.sql");
    }
  }

  private static XxlJobInfo job(XxlJobTables tables, int id) {
    return tables.jobs().stream().filter(j -> j.id() == id).findFirst().orElseThrow();
  }

  @Test
  void readsEveryGroupAndJobOfAMysqldumpAndSkipsTheOtherTables() throws IOException {
    XxlJobTables tables = testDump();
    assertThat(tables.groups())
        .extracting(XxlJobGroup::appName)
        .containsExactly("billing-executor", "crawler-executor", "ops-executor", "idle-executor");
    assertThat(tables.jobs()).extracting(XxlJobInfo::id).containsExactlyElementsOf(range(1, 20));
    assertThat(tables.groups().get(2).title()).isEqualTo("运维; -- ops");
  }

  @Test
  void decodesMysqlEscapesQuotesAndNulls() throws IOException {
    XxlJobTables tables = testDump();
    assertThat(job(tables, 2).executorParam())
        .isEqualTo("{\"region\":\"it's \\\\ here\",\"note\":\"a;b -- c /* d */\"}");
    assertThat(job(tables, 4).executorParam()).isEqualTo("C:\\data\\in\tline2\nline3");
    assertThat(job(tables, 20).jobDesc()).isEqualTo("Fan-out with 'odd' children");
    XxlJobInfo nulls = job(tables, 3);
    assertThat(nulls.alarmEmail()).isNull();
    assertThat(nulls.scheduleConf()).isNull();
    assertThat(nulls.executorParam()).isNull();
    assertThat(nulls.glueSource()).isNull();
    assertThat(nulls.childJobIds()).isNull();
    assertThat(job(tables, 11).glueSource())
        .contains("XxlJobHelper.log(\"it's done; -- really\");")
        .contains("\n\t@Override\n");
  }

  @Test
  void readsEveryColumnOfARow() throws IOException {
    XxlJobInfo first = job(testDump(), 1);
    assertThat(first)
        .isEqualTo(
            new XxlJobInfo(
                1,
                1,
                "Nightly invoices",
                "alice",
                "billing-oncall@example.com,alice@example.com",
                "CRON",
                "0 0 2 ? * 1",
                "DO_NOTHING",
                "FIRST",
                "invoiceJob",
                "2026-11",
                "SERIAL_EXECUTION",
                600,
                2,
                "BEAN",
                "",
                "2,3",
                1));
  }

  /** xxl-job's own script names the columns and has no dump header; 2.1's schema has job_cron. */
  @Test
  void readsInsertsWithAColumnListAndTheSchemaBefore23() {
    String sql =
        """
        CREATE database if NOT EXISTS `xxl_job` default character set utf8mb4;
        use `xxl_job`;
        # the seed rows of xxl-job 2.1
        INSERT INTO `xxl_job_group`(`id`, `app_name`, `title`, `order`, `address_type`, `address_list`) VALUES (1, 'xxl-job-executor-sample', '示例执行器', 1, 0, NULL);
        INSERT INTO `xxl_job_info`(`id`, `job_group`, `job_cron`, `job_desc`, `add_time`, `update_time`, `author`, `alarm_email`, `executor_route_strategy`, `executor_handler`, `executor_param`, `executor_block_strategy`, `executor_timeout`, `executor_fail_retry_count`, `glue_type`, `glue_source`, `glue_remark`, `glue_updatetime`, `child_jobid`) VALUES (1, 1, '0 0 0 * * ? *', '测试任务1', '2018-11-03 22:21:31', '2018-11-03 22:21:31', 'XXL', '', 'FIRST', 'demoJobHandler', '', 'SERIAL_EXECUTION', 0, 0, 'BEAN', '', 'GLUE代码初始化', '2018-11-03 22:21:31', '');
        commit;
        """;
    XxlJobTables tables = SqlDumpReader.read(sql, "seed");
    assertThat(tables.groups())
        .containsExactly(new XxlJobGroup(1, "xxl-job-executor-sample", "示例执行器"));
    XxlJobInfo job = tables.jobs().get(0);
    assertThat(job.scheduleType()).isEqualTo("CRON");
    assertThat(job.scheduleConf()).isEqualTo("0 0 0 * * ? *");
    assertThat(job.misfireStrategy()).isNull();
    assertThat(job.triggerStatus()).as("absent column: stopped").isZero();
  }

  @Test
  void readsLiteralFormsMysqlWrites() {
    String sql =
        "CREATE TABLE IF NOT EXISTS xxl_job_group (id int, app_name varchar(64), title varchar(12),"
            + " UNIQUE KEY `i_app` (`app_name`), CONSTRAINT c CHECK (id > 0));\n"
            + "INSERT IGNORE INTO xxl_job.xxl_job_group VALUES (+7,_utf8mb4'app-a',0x5469746C65),"
            + "(8,'app-''b''',X'C3A9'),\n(9,\"dq \\\"x\\\"\",'a\\%b\\_c\\Zd\\0e\\bf\\rg');\n"
            + "CREATE TABLE `xxl_job_info` (`id` int);";
    XxlJobTables tables = SqlDumpReader.read(sql, "literals");
    assertThat(tables.groups())
        .containsExactly(
            new XxlJobGroup(7, "app-a", "Title"),
            new XxlJobGroup(8, "app-'b'", "é"),
            new XxlJobGroup(9, "dq \"x\"", "a\\%b\\_c\u001Ad\0e\bf\rg"));
    assertThat(tables.jobs()).isEmpty();
  }

  /**
   * xxl-job's own {@code doc/db/tables_xxl_job.sql} fills its time columns with {@code now()}; an
   * excerpt in its style (not the file itself). Function calls and server-computed words are read
   * as unknown values and noted for the report; the import goes on.
   */
  @Test
  void sqlFunctionCallsAreUnknownValuesNotedForTheReport() {
    String sql =
        """
        CREATE TABLE `xxl_job_group` (
          `id` int(11) NOT NULL AUTO_INCREMENT,
          `app_name` varchar(64) NOT NULL COMMENT '执行器AppName',
          `title` varchar(12) NOT NULL COMMENT '执行器名称',
          `address_type` tinyint(4) NOT NULL DEFAULT '0',
          `address_list` text,
          `update_time` datetime DEFAULT NULL,
          PRIMARY KEY (`id`)
        ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
        CREATE TABLE `xxl_job_info` (
          `id` int(11) NOT NULL AUTO_INCREMENT,
          `job_group` int(11) NOT NULL,
          `job_desc` varchar(255) NOT NULL,
          `add_time` datetime DEFAULT NULL,
          `update_time` datetime DEFAULT NULL,
          `schedule_type` varchar(50) NOT NULL DEFAULT 'NONE',
          `schedule_conf` varchar(128) DEFAULT NULL,
          `misfire_strategy` varchar(50) NOT NULL DEFAULT 'DO_NOTHING',
          `executor_route_strategy` varchar(50) DEFAULT NULL,
          `executor_handler` varchar(255) DEFAULT NULL,
          `executor_block_strategy` varchar(50) DEFAULT NULL,
          `glue_type` varchar(50) NOT NULL,
          `glue_updatetime` datetime DEFAULT NULL,
          `trigger_status` tinyint(4) NOT NULL DEFAULT '0',
          PRIMARY KEY (`id`)
        ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
        INSERT INTO `xxl_job_group`(`id`, `app_name`, `title`, `address_type`, `address_list`, `update_time`)
          VALUES (1, 'sample-executor', 'Sample', 0, NULL, now());
        INSERT INTO `xxl_job_info`(`id`, `job_group`, `job_desc`, `add_time`, `update_time`, `schedule_type`, `schedule_conf`, `misfire_strategy`, `executor_route_strategy`, `executor_handler`, `executor_block_strategy`, `glue_type`, `glue_updatetime`, `trigger_status`)
          VALUES (1, 1, 'Demo job', now(), NOW(3), 'CRON', '0 0 0 * * ? *', 'DO_NOTHING', 'FIRST', 'demoJobHandler', 'SERIAL_EXECUTION', 'BEAN', CURRENT_TIMESTAMP, 0),
                 (2, 1, 'Second', unix_timestamp(), now(), 'CRON', '0 0 1 * * ? *', 'DO_NOTHING', 'FIRST', 'demoJobHandler', 'SERIAL_EXECUTION', 'BEAN', date_format(now(), '%Y'), 0);
        """;
    XxlJobTables tables = SqlDumpReader.read(sql, "tables_xxl_job.sql");
    assertThat(tables.groups()).containsExactly(new XxlJobGroup(1, "sample-executor", "Sample"));
    assertThat(tables.jobs()).extracting(XxlJobInfo::id).containsExactly(1, 2);
    assertThat(tables.jobs().get(1).scheduleConf()).isEqualTo("0 0 1 * * ? *");
    assertThat(tables.notes())
        .containsExactly(
            "xxl_job_group.update_time: 1 row holds the SQL expression now() (row id=1), read as"
                + " unknown: the importer does not evaluate SQL; the importer does not use this"
                + " column",
            "xxl_job_info.add_time: 1 row holds the SQL expression now() (row id=1), read as"
                + " unknown: the importer does not evaluate SQL; the importer does not use this"
                + " column",
            "xxl_job_info.add_time: 1 row holds the SQL expression unix_timestamp() (row id=2),"
                + " read as unknown: the importer does not evaluate SQL; the importer does not use"
                + " this column",
            "xxl_job_info.update_time: 1 row holds the SQL expression NOW(3) (row id=1), read as"
                + " unknown: the importer does not evaluate SQL; the importer does not use this"
                + " column",
            "xxl_job_info.update_time: 1 row holds the SQL expression now() (row id=2), read as"
                + " unknown: the importer does not evaluate SQL; the importer does not use this"
                + " column",
            "xxl_job_info.glue_updatetime: 1 row holds the SQL expression CURRENT_TIMESTAMP (row"
                + " id=1), read as unknown: the importer does not evaluate SQL; the importer does"
                + " not use this column",
            "xxl_job_info.glue_updatetime: 1 row holds the SQL expression"
                + " date_format(now(),'%Y') (row id=2), read as unknown: the importer does not"
                + " evaluate SQL; the importer does not use this column");
    // The import report carries them, and both jobs are importable.
    MigrationReport report =
        XxlJobMigration.plan(tables, new MappingOptions(null, "UTC", 1_790_000_000_000L)).report();
    assertThat(report.notes()).containsAll(tables.notes());
    assertThat(report.importable()).as(ReportText.render(report)).isEqualTo(2);
    assertThat(ReportText.render(report))
        .contains("note: xxl_job_info.add_time: 1 row holds the SQL expression now()");
  }

  @Test
  void anUnknownValueInAColumnTheImporterReadsIsNull() {
    String sql =
        "CREATE TABLE xxl_job_group (id int, app_name text, title text);"
            + "INSERT INTO xxl_job_group VALUES (1,'a',concat('x','y')),(2,'b',DEFAULT);"
            + "CREATE TABLE xxl_job_info (id int);";
    XxlJobTables tables = SqlDumpReader.read(sql, "s");
    assertThat(tables.groups())
        .containsExactly(new XxlJobGroup(1, "a", null), new XxlJobGroup(2, "b", null));
    assertThat(tables.notes())
        .containsExactly(
            "xxl_job_group.title: 1 row holds the SQL expression concat('x','y') (row id=1), read"
                + " as unknown: the importer does not evaluate SQL; the column is read as NULL",
            "xxl_job_group.title: 1 row holds the SQL expression DEFAULT (row id=2), read as"
                + " unknown: the importer does not evaluate SQL; the column is read as NULL");
  }

  @Test
  void aNegativeNumberIsAValue() {
    String sql =
        "CREATE TABLE xxl_job_group (id int, app_name text, title text);"
            + "INSERT INTO xxl_job_group VALUES (-3,'a','b');"
            + "CREATE TABLE xxl_job_info (id int);";
    assertThat(SqlDumpReader.read(sql, "s").groups().get(0).id()).isEqualTo(-3);
  }

  @Test
  void anUnterminatedStringNamesTheLineItStartsOn() {
    String sql =
        "CREATE TABLE xxl_job_group (id int);\n\nINSERT INTO xxl_job_group VALUES ('oops);\n";
    assertThatThrownBy(() -> SqlDumpReader.read(sql, "s"))
        .isInstanceOf(XxlSourceException.class)
        .hasMessageContaining("line 3");
  }

  @Test
  void anInsertWithoutColumnsOrCreateTableIsAnError() {
    assertThatThrownBy(() -> SqlDumpReader.read("INSERT INTO `xxl_job_info` VALUES (1,2,3);", "s"))
        .isInstanceOf(XxlSourceException.class)
        .hasMessageContaining("no column list and no CREATE TABLE xxl_job_info");
  }

  @Test
  void aRowWithTheWrongNumberOfValuesIsAnError() {
    String sql =
        "CREATE TABLE xxl_job_group (id int, app_name text, title text);"
            + "INSERT INTO xxl_job_group VALUES (1,'a','b'),(2,'c');";
    assertThatThrownBy(() -> SqlDumpReader.read(sql, "s"))
        .isInstanceOf(XxlSourceException.class)
        .hasMessageContaining("row 2 has 2 values for 3 columns");
  }

  @Test
  void aDumpWithoutTheJobTableIsAnError() {
    String sql = "CREATE TABLE xxl_job_group (id int, app_name text, title text);";
    assertThatThrownBy(() -> SqlDumpReader.read(sql, "s"))
        .isInstanceOf(XxlSourceException.class)
        .hasMessageContaining("xxl_job_info");
  }

  @Test
  void aMissingRequiredColumnIsNamed() {
    String sql =
        "CREATE TABLE xxl_job_group (id int, title text); INSERT INTO xxl_job_group VALUES (1,'t');"
            + "CREATE TABLE xxl_job_info (id int);";
    assertThatThrownBy(() -> SqlDumpReader.read(sql, "s"))
        .isInstanceOf(XxlSourceException.class)
        .hasMessageContaining("xxl_job_group has no column app_name (row id=1)");
  }

  @Test
  void aTinyint1StatusReadAsABooleanIsOneOrZero() {
    Map<String, String> row = new HashMap<>();
    row.put("ID", "5");
    row.put("job_group", "1");
    row.put("schedule_type", "NONE");
    row.put("trigger_status", "true");
    assertThat(XxlRows.jobs(List.of(row)).get(0).triggerStatus()).isEqualTo(1);
    row.put("trigger_status", "false");
    assertThat(XxlRows.jobs(List.of(row)).get(0).triggerStatus()).isZero();
    row.put("trigger_status", "yes");
    assertThatThrownBy(() -> XxlRows.jobs(List.of(row)))
        .isInstanceOf(XxlSourceException.class)
        .hasMessage("xxl_job_info row id=5: trigger_status is not a number: 'yes'");
  }

  private static List<Integer> range(int from, int to) {
    return java.util.stream.IntStream.rangeClosed(from, to).boxed().toList();
  }
}
