package dev.kairos.drills.bench;

/**
 * A measured window {@code [from, to)}: the CPU every process spent over it ({@link CpuMeter}), and
 * Redis' own counters (commands by execution time, forks and AOF rewrites) from its start to when
 * it was closed.
 */
final class Window {

  /** What a window measured. */
  record Measured(
      long fromMs,
      long toMs,
      CpuMeter.Usage cpu,
      RedisCommandStats commands,
      RedisPersistence persistedBefore,
      RedisPersistence persisted) {

    /** The {@code REDIS} and {@code REDIS-DATA} progress lines of the window. */
    void report(String label, long fires) {
      BenchOut.say("REDIS %s: %s", label, commands.perFireLine(fires, 8));
      BenchOut.say("REDIS-DATA %s: %s", label, persisted.line(persistedBefore));
    }
  }

  /** A window that has begun: its first CPU sample and Redis' state at its start. */
  static final class Open {
    private final BenchCluster cluster;
    private final long fromMs;
    private final RedisPersistence persistedBefore;
    private final CpuMeter.Sample before;

    private Open(BenchCluster cluster, long fromMs) {
      this.cluster = cluster;
      this.fromMs = fromMs;
      cluster.redis().sync().configResetstat();
      this.persistedBefore = RedisPersistence.parse(cluster.redis().sync().info());
      this.before = cluster.meter().sample();
    }

    /** Ends the window at {@code toMs}, whose CPU sample {@code after} was taken then. */
    Measured close(long toMs, CpuMeter.Sample after) {
      RedisCommandStats commands =
          RedisCommandStats.parse(cluster.redis().sync().info("commandstats"));
      RedisPersistence persisted = RedisPersistence.parse(cluster.redis().sync().info());
      return new Measured(
          fromMs,
          toMs,
          cluster.meter().between(before, after),
          commands,
          persistedBefore,
          persisted);
    }
  }

  private Window() {}

  /** Begins a window now, at {@code fromMs} (the caller has slept until then). */
  static Open open(BenchCluster cluster, long fromMs) {
    return new Open(cluster, fromMs);
  }

  /** Begins a window now, at {@code fromMs}, sleeps until {@code toMs} and ends it. */
  static Measured measure(BenchCluster cluster, long fromMs, long toMs)
      throws InterruptedException {
    Open open = open(cluster, fromMs);
    WallClock.sleepUntil(toMs);
    return open.close(toMs, cluster.meter().sample());
  }
}
