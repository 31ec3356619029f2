package dev.kairos.devinfra;

import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real standalone redis-server (6.2, from embedded-redis) on a free loopback port, with AOF on
 * ({@code appendfsync everysec}) so {@link #restart()} keeps the data.
 *
 * <p>Layout under the given directory: {@code bin/redis-server}, {@code data/redis.conf}, {@code
 * data/redis.log}, {@code data/appendonly.aof}.
 */
public final class EmbeddedRedis implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);

  private final Lifecycle lifecycle = new Lifecycle("redis");
  private final ServerControl server;
  private final int port;

  private EmbeddedRedis(ServerControl server, int port) {
    this.server = server;
    this.port = port;
  }

  /**
   * A server started elsewhere ({@link InfraBackend#CONTAINERS}) that listens on {@code
   * 127.0.0.1:<port>}; {@code server} stops and starts it.
   */
  static EmbeddedRedis attached(ServerControl server, int port) {
    EmbeddedRedis redis = new EmbeddedRedis(server, port);
    redis.lifecycle.markStarted();
    log.info("redis attached on 127.0.0.1:{}", port);
    return redis;
  }

  /** Starts a server under {@code dir}; returns when it answers PING. */
  public static EmbeddedRedis start(Path dir) {
    long began = System.nanoTime();
    Path binary = RedisBinary.extractInto(dir.resolve("bin"));
    int port = FreePorts.pick();
    EmbeddedRedis redis =
        new EmbeddedRedis(new RedisProcess(binary, dir.resolve("data"), port, List.of()), port);
    redis.lifecycle.markStarted();
    try {
      redis.server.start();
    } catch (RuntimeException e) {
      redis.close();
      throw e;
    }
    log.info("redis started on 127.0.0.1:{} in {} ms", redis.port(), Millis.since(began));
    return redis;
  }

  /** {@code redis://127.0.0.1:<port>}. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** True while the server process runs (false after {@link #stop()}). */
  public boolean isRunning() {
    return server.isRunning();
  }

  /**
   * Stops the server (SIGTERM: Redis syncs its AOF and exits). Connections are refused until {@link
   * #restart()}. Stopping a stopped server does nothing.
   */
  public void stop() {
    lifecycle.requireStarted();
    server.stop();
    log.info("redis on 127.0.0.1:{} stopped", port());
  }

  /** Stops the server if it runs and starts it again on the same port with the same data. */
  public void restart() {
    lifecycle.requireStarted();
    long began = System.nanoTime();
    server.stop();
    server.start();
    log.info("redis restarted on 127.0.0.1:{} in {} ms", port(), Millis.since(began));
  }

  @Override
  public void close() {
    if (lifecycle.markClosed()) {
      server.close();
    }
  }

  @Override
  public String toString() {
    return "EmbeddedRedis[" + uri() + "]";
  }
}
