package dev.kairos.devinfra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real ZooKeeper ensemble of {@code servers} quorum peers (Curator's TestingCluster, in this JVM)
 * on free loopback ports; {@link #start} returns once a session can be established, i.e. a quorum
 * has formed.
 *
 * <p>Stopping a server ({@link #stopServer(int)}) closes it like a crash would, but — as with
 * TestingCluster.killServer — it does not expire the sessions of its clients: they move to another
 * server within their session timeout. To make a client's ephemeral nodes vanish, expire its
 * session (e.g. ZooKeeper's {@code getTestable().injectSessionExpiration()}) or close it.
 */
public final class EmbeddedZooKeeperEnsemble implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeperEnsemble.class);
  private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);

  private final Lifecycle lifecycle = new Lifecycle("zookeeper ensemble");
  private final List<InstanceSpec> specs;
  private final TestingCluster cluster;

  private EmbeddedZooKeeperEnsemble(List<InstanceSpec> specs) {
    this.specs = specs;
    this.cluster = new TestingCluster(specs);
  }

  /** Starts {@code servers} peers under {@code dir/server-<i>} and waits for a quorum. */
  public static EmbeddedZooKeeperEnsemble start(Path dir, int servers) {
    if (servers < 1) {
      throw new IllegalArgumentException("an ensemble needs at least one server, got " + servers);
    }
    long began = System.nanoTime();
    List<InstanceSpec> specs = new ArrayList<>();
    try {
      for (int i = 0; i < servers; i++) {
        Path data = Files.createDirectories(dir.resolve("server-" + i));
        specs.add(ZooKeeperSpecs.ensembleMember(data, i + 1));
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot create zookeeper ensemble dirs under " + dir, e);
    }
    EmbeddedZooKeeperEnsemble ensemble = new EmbeddedZooKeeperEnsemble(List.copyOf(specs));
    ensemble.lifecycle.markStarted();
    try {
      ensemble.cluster.start();
      ensemble.awaitSession(ensemble.connectString(), "a quorum");
    } catch (Exception e) {
      ensemble.close();
      throw new IllegalStateException(
          "zookeeper ensemble failed to start under " + dir + ": " + e, e);
    }
    log.info(
        "zookeeper ensemble of {} started on {} in {} ms",
        servers,
        ensemble.connectString(),
        Millis.since(began));
    return ensemble;
  }

  /** {@code 127.0.0.1:<p1>,127.0.0.1:<p2>,...}. */
  public String connectString() {
    return cluster.getConnectString();
  }

  public int size() {
    return specs.size();
  }

  /** The client port of server i. */
  public int port(int i) {
    return specs.get(i).getPort();
  }

  /** Closes server i (its clients' sessions survive if they reconnect elsewhere in time). */
  public void stopServer(int i) {
    lifecycle.requireStarted();
    try {
      cluster.killServer(specs.get(i));
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop zookeeper server " + i, e);
    }
    log.info("zookeeper server {} (127.0.0.1:{}) stopped", i, port(i));
  }

  /**
   * Starts server i again on the same ports with the same data and returns once it has rejoined the
   * quorum and accepts sessions itself.
   */
  public void restartServer(int i) {
    lifecycle.requireStarted();
    long began = System.nanoTime();
    try {
      cluster.restartServer(specs.get(i));
    } catch (Exception e) {
      throw new IllegalStateException("cannot restart zookeeper server " + i, e);
    }
    awaitSession("127.0.0.1:" + port(i), "server " + i + " to rejoin the quorum");
    log.info("zookeeper server {} restarted in {} ms", i, Millis.since(began));
  }

  @Override
  public void close() {
    if (lifecycle.markClosed()) {
      try {
        cluster.close();
      } catch (IOException e) {
        log.warn("zookeeper ensemble {} did not close cleanly", connectString(), e);
      }
    }
  }

  @Override
  public String toString() {
    return "EmbeddedZooKeeperEnsemble[" + connectString() + "]";
  }

  /** Waits until a session can be opened on {@code servers}: only a quorum member grants one. */
  private static void awaitSession(String servers, String what) {
    Poll.until(
        QUORUM_TIMEOUT,
        "a zookeeper session on " + servers + " (" + what + ")",
        () -> {
          ZooKeeper probe = null;
          try {
            CountDownLatch connected = new CountDownLatch(1);
            probe =
                new ZooKeeper(
                    servers,
                    5_000,
                    event -> {
                      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                        connected.countDown();
                      }
                    });
            return connected.await(5, TimeUnit.SECONDS) && probe.exists("/", false) != null;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          } finally {
            if (probe != null) {
              try {
                probe.close();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
        });
  }
}
