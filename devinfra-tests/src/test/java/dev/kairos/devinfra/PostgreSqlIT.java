package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@RealInfra(postgres = true)
class PostgreSqlIT {

  @BeforeAll
  static void migrate(EmbeddedPostgreSql pg) {
    Flyway.configure()
        .dataSource(pg.jdbcUrl(), pg.username(), pg.password())
        .locations("classpath:db/migration")
        .load()
        .migrate();
  }

  @Test
  void flywaySchemaAcceptsInsertsAndQueries(EmbeddedPostgreSql pg) throws SQLException {
    try (Connection c = pg.connect()) {
      insert(c, 1, "nightly-report");
      assertThat(nameOf(c, 1)).isEqualTo("nightly-report");
    }
  }

  @Test
  void stoppedServerRefusesConnectionsAndStartBringsBackTheData(EmbeddedPostgreSql pg)
      throws SQLException {
    try (Connection c = pg.connect()) {
      insert(c, 2, "survives-restart");
    }

    pg.stop();
    try {
      assertThatThrownBy(pg::connect).isInstanceOf(SQLException.class);
    } finally {
      pg.start();
    }

    try (Connection c = pg.connect()) {
      assertThat(nameOf(c, 2)).isEqualTo("survives-restart");
    }
  }

  private static void insert(Connection c, long id, String name) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("INSERT INTO job_probe (id, name) VALUES (?, ?)")) {
      s.setLong(1, id);
      s.setString(2, name);
      assertThat(s.executeUpdate()).isEqualTo(1);
    }
  }

  private static String nameOf(Connection c, long id) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT name FROM job_probe WHERE id = ?")) {
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
