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
  private final TestingServer server;

  private EmbeddedZooKeeper(TestingServer server) {
    this.server = server;
  }

  /** Starts a server under {@code dir}; returns when it accepts connections. */
  public static EmbeddedZooKeeper start(Path dir) {
    long began = System.nanoTime();
    try {
      Path data = Files.createDirectories(dir.resolve("data"));
      EmbeddedZooKeeper zk =
          new EmbeddedZooKeeper(new TestingServer(ZooKeeperSpecs.standalone(data), true));
      zk.lifecycle.markStarted();
      log.info("zookeeper started on {} in {} ms", zk.connectString(), Millis.since(began));
      return zk;
    } catch (Exception e) {
      throw new IllegalStateException("zookeeper failed to start under " + dir + ": " + e, e);
    }
  }

  /** {@code 127.0.0.1:<port>}. */
  public String connectString() {
    return server.getConnectString();
  }

  public int port() {
    return server.getPort();
  }

  /** Stops the server: clients lose their connection (sessions are not expired by this). */
  public void stop() {
    lifecycle.requireStarted();
    try {
      server.stop();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop zookeeper on " + connectString(), e);
    }
    log.info("zookeeper on {} stopped", connectString());
  }

  /** Stops the server if it runs and starts it again on the same port with the same data. */
  public void restart() {
    lifecycle.requireStarted();
    long began = System.nanoTime();
    try {
      server.restart();
    } catch (Exception e) {
      throw new IllegalStateException("cannot restart zookeeper on " + connectString(), e);
    }
    log.info("zookeeper restarted on {} in {} ms", connectString(), Millis.since(began));
  }

  @Override
  public void close() {
    if (lifecycle.markClosed()) {
      try {
        server.close();
      } catch (IOException e) {
        log.warn("zookeeper on {} did not close cleanly", connectString(), e);
      }
    }
  }

  @Override
  public String toString() {
    return "EmbeddedZooKeeper[" + connectString() + "]";
  }
}
