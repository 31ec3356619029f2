package dev.kairos.devinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.curator.test.TestingServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real standalone ZooKeeper 3.9 server (Curator's TestingServer, in this JVM) on a free loopback
 * port. Sessions may be 1 s to 60 s long. Data (snapshots and transaction log) lives in {@code
 * <dir>/data} and survives {@link #restart()}, so do sessions that reconnect within their timeout.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

  private final Lifecycle lifecycle = new Lifecycle("zookeeper");
  private final ServerControl server;
  private final int port;

  private EmbeddedZooKeeper(ServerControl server, int port) {
    this.server = server;
    this.port = port;
  }

  /**
   * A server started elsewhere ({@link InfraBackend#CONTAINERS}) that listens on {@code
   * 127.0.0.1:<port>}; {@code server} stops and starts it.
   */
  static EmbeddedZooKeeper attached(ServerControl server, int port) {
    EmbeddedZooKeeper zk = new EmbeddedZooKeeper(server, port);
    zk.lifecycle.markStarted();
    log.info("zookeeper attached on {}", zk.connectString());
    return zk;
  }

  /** Starts a server under {@code dir}; returns when it accepts connections. */
  public static EmbeddedZooKeeper start(Path dir) {
    long began = System.nanoTime();
    try {
      Path data = Files.createDirectories(dir.resolve("data"));
      TestingServer testing = new TestingServer(ZooKeeperSpecs.standalone(data), true);
      EmbeddedZooKeeper zk = new EmbeddedZooKeeper(new InJvm(testing), testing.getPort());
      zk.lifecycle.markStarted();
      log.info("zookeeper started on {} in {} ms", zk.connectString(), Millis.since(began));
      return zk;
    } catch (Exception e) {
      throw new IllegalStateException("zookeeper failed to start under " + dir + ": " + e, e);
    }
  }

  /** {@code 127.0.0.1:<port>}. */
  public String connectString() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** Stops the server: clients lose their connection (sessions are not expired by this). */
  public void stop() {
    lifecycle.requireStarted();
    server.stop();
    log.info("zookeeper on {} stopped", connectString());
  }

  /** Stops the server if it runs and starts it again on the same port with the same data. */
  public void restart() {
    lifecycle.requireStarted();
    long began = System.nanoTime();
    server.stop();
    server.start();
    log.info("zookeeper restarted on {} in {} ms", connectString(), Millis.since(began));
  }

  @Override
  public void close() {
    if (lifecycle.markClosed()) {
      server.close();
    }
  }

  @Override
  public String toString() {
    return "EmbeddedZooKeeper[" + connectString() + "]";
  }

  /** Curator's TestingServer in this JVM. */
  private record InJvm(TestingServer testing) implements ServerControl {

    @Override
    public void start() {
      try {
        testing.restart(); // starts a stopped server on the same port and data
      } catch (Exception e) {
        throw new IllegalStateException("cannot start zookeeper on " + testing.getPort(), e);
      }
    }

    @Override
    public void stop() {
      try {
        testing.stop();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot stop zookeeper on " + testing.getPort(), e);
      }
    }

    @Override
    public boolean isRunning() {
      return true; // TestingServer does not say; EmbeddedZooKeeper never asked it
    }

    @Override
    public void close() {
      try {
        testing.close();
      } catch (IOException e) {
        log.warn("zookeeper on 127.0.0.1:{} did not close cleanly", testing.getPort(), e);
      }
    }
  }
}
