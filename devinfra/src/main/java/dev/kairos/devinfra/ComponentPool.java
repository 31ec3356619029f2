package dev.kairos.devinfra;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The components started under one work dir, at most one of each kind. {@link #ensure} starts the
 * missing ones of a request in parallel (they are independent processes or servers, and the slow
 * ones — PostgreSQL initdb, the RocketMQ NameServer, forming a Redis Cluster — overlap well);
 * {@link #close} closes them in the reverse order they finished starting.
 *
 * <p>Thread-safety: {@code ensure} and {@code close} are synchronized; the component fields are
 * volatile so getters need no lock.
 */
final class ComponentPool implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ComponentPool.class);
  static final int CLUSTER_MASTERS = 3;
  static final int ENSEMBLE_SERVERS = 3;

  private final Path workDir;
  private final ComponentStarter starter;
  private final Lifecycle lifecycle = new Lifecycle("embedded infrastructure");
  private final Deque<AutoCloseable> closeOrder = new ArrayDeque<>();

  volatile EmbeddedRedis redis;
  volatile EmbeddedRedisCluster redisCluster;
  volatile EmbeddedRedisCluster replicatedCluster;
  volatile EmbeddedZooKeeper zookeeper;
  volatile EmbeddedZooKeeperEnsemble zookeeperEnsemble;
  volatile EmbeddedRocketMq rocketMq;
  volatile EmbeddedPostgreSql postgres;

  ComponentPool(Path workDir) {
    this(workDir, ComponentStarter.EMBEDDED);
  }

  /** Components started by {@code starter}, which the pool closes after them. */
  ComponentPool(Path workDir, ComponentStarter starter) {
    this.workDir = workDir;
    this.starter = starter;
    lifecycle.markStarted();
  }

  Path workDir() {
    return workDir;
  }

  /**
   * Starts whatever {@code request} needs that is not running yet. If any component fails, the
   * others of this call still finish starting (and stay in the pool, to be closed with it) and an
   * {@link IllegalStateException} names every component that failed and why.
   */
  synchronized void ensure(InfraRequest request) {
    lifecycle.requireStarted();
    Map<String, Starter> missing = new LinkedHashMap<>();
    if (request.redis() == RedisMode.STANDALONE && redis == null) {
      missing.put("redis", () -> redis = track(starter.redis(dir("redis"))));
    }
    if (request.redis() == RedisMode.CLUSTER && redisCluster == null) {
      missing.put(
          "redis cluster",
          () -> redisCluster = track(starter.redisCluster(dir("redis-cluster"), CLUSTER_MASTERS)));
    }
    if (request.redis() == RedisMode.CLUSTER_WITH_REPLICAS && replicatedCluster == null) {
      missing.put(
          "redis cluster with replicas",
          () ->
              replicatedCluster =
                  track(
                      EmbeddedRedisCluster.start(
                          dir("redis-cluster-replicas"), CLUSTER_MASTERS, 1, "everysec")));
    }
    if (request.zookeeper() == ZkMode.STANDALONE && zookeeper == null) {
      missing.put("zookeeper", () -> zookeeper = track(starter.zookeeper(dir("zookeeper"))));
    }
    if (request.zookeeper() == ZkMode.ENSEMBLE && zookeeperEnsemble == null) {
      missing.put(
          "zookeeper ensemble",
          () ->
              zookeeperEnsemble =
                  track(starter.zookeeperEnsemble(dir("zookeeper-ensemble"), ENSEMBLE_SERVERS)));
    }
    if (request.rocketMq() && rocketMq == null) {
      missing.put("rocketmq", () -> rocketMq = track(starter.rocketMq(dir("rocketmq"))));
    }
    if (request.postgres() && postgres == null) {
      missing.put("postgresql", () -> postgres = track(starter.postgres(dir("postgres"))));
    }
    if (!missing.isEmpty()) {
      startAll(missing);
    }
  }

  @Override
  public synchronized void close() {
    if (!lifecycle.markClosed()) {
      return;
    }
    long began = System.nanoTime();
    while (!closeOrder.isEmpty()) {
      AutoCloseable component = closeOrder.pop();
      try {
        component.close();
      } catch (Exception e) {
        log.warn("{} did not close cleanly", component, e);
      }
    }
    starter.close();
    // Closing Lettuce and RocketMQ clients wakes Netty's global executor; it ends a second later.
    LingeringThreads.awaitGone(
        LingeringThreads.NETTY_GLOBAL, Duration.ofSeconds(10), "Netty global executor");
    log.info("embedded infrastructure under {} closed in {} ms", workDir, Millis.since(began));
  }

  private void startAll(Map<String, Starter> missing) {
    long began = System.nanoTime();
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService starters =
        Executors.newFixedThreadPool(
            missing.size(),
            r -> {
              Thread t = new Thread(r, "kairos-devinfra-start-" + threadNumber.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      Map<String, Future<?>> running = new LinkedHashMap<>();
      missing.forEach((name, starter) -> running.put(name, starters.submit(starter::start)));
      List<String> failures = new ArrayList<>();
      IllegalStateException failure = new IllegalStateException();
      for (Map.Entry<String, Future<?>> entry : running.entrySet()) {
        try {
          entry.getValue().get();
        } catch (ExecutionException e) {
          failures.add(entry.getKey() + " could not start: " + e.getCause());
          failure.addSuppressed(e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while starting " + missing.keySet(), e);
        }
      }
      if (!failures.isEmpty()) {
        IllegalStateException e =
            new IllegalStateException(
                "embedded infrastructure under " + workDir + ": " + String.join("; ", failures));
        for (Throwable cause : failure.getSuppressed()) {
          e.addSuppressed(cause);
        }
        throw e;
      }
      log.info("started {} in {} ms (in parallel)", missing.keySet(), Millis.since(began));
    } finally {
      starters.shutdownNow();
    }
  }

  private Path dir(String name) {
    return workDir.resolve(name);
  }

  private <T extends AutoCloseable> T track(T component) {
    synchronized (closeOrder) {
      closeOrder.push(component);
    }
    return component;
  }

  @FunctionalInterface
  private interface Starter {
    void start();
  }
}
