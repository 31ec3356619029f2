package dev.kairos.migrate.xxljob.source;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Reads {@code xxl_job_group} and {@code xxl_job_info} from the user's MySQL or MariaDB over JDBC,
 * read-only, every column as text. The password is handed to the driver and nowhere else: it is
 * never logged and never part of a message or of the report's source (the URL is shown without its
 * query string, where a password could also hide).
 */
public final class JdbcXxlJobReader {

  private JdbcXxlJobReader() {}

  /**
   * @param url {@code jdbc:mariadb://host:3306/xxl_job} or {@code jdbc:mysql://...} (read with the
   *     MariaDB driver, which accepts MySQL URLs with {@code permitMysqlScheme})
   * @throws XxlSourceException when the database cannot be read
   */
  public static XxlJobTables read(String url, String user, String password) {
    Properties properties = new Properties();
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (password != null) {
      properties.setProperty("password", password);
    }
    String driverUrl = driverUrl(url);
    try (Connection connection = DriverManager.getConnection(driverUrl, properties)) {
      connection.setReadOnly(true);
      List<Map<String, String>> groups = rows(connection, XxlRows.GROUP_TABLE);
      List<Map<String, String>> jobs = rows(connection, XxlRows.JOB_TABLE);
      return new XxlJobTables(displayUrl(url), XxlRows.groups(groups), XxlRows.jobs(jobs));
    } catch (SQLException e) {
      // The driver's message names host and database, never the password.
      throw new XxlSourceException(
          "cannot read the xxl-job tables at " + displayUrl(url) + ": " + e.getMessage(), e);
    }
  }

  /** The URL as shown to people: without its query string (it may carry a password). */
  public static String displayUrl(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  static String driverUrl(String url) {
    if (!url.startsWith("jdbc:mysql:") || url.contains("permitMysqlScheme")) {
      return url;
    }
    return url + (url.contains("?") ? "&" : "?") + "permitMysqlScheme";
  }

  private static List<Map<String, String>> rows(Connection connection, String table)
      throws SQLException {
    List<Map<String, String>> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
      ResultSetMetaData meta = result.getMetaData();
      while (result.next()) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int c = 1; c <= meta.getColumnCount(); c++) {
          row.put(meta.getColumnLabel(c), result.getString(c));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
