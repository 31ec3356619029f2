package dev.kairos.coordinator.cluster;

import dev.kairos.core.redis.KairosRedis;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Whether this node reaches Redis: a {@code PING} on the node's own connection every interval, and
 * Redis counts as reached while one answered within the bound (the leader timeout). The leadership
 * manager asks it: a node partitioned from Redis but not from ZooKeeper would otherwise keep
 * leading, heartbeating, and holding every fire of the cluster unclaimed.
 *
 * <p>Thread-safe. One named daemon thread; {@link #close} stops it.
 */
public final class RedisReachability implements BooleanSupplier, AutoCloseable {

  private final KairosRedis redis;
  private final long intervalMs;
  private final long boundNanos;
  private final LongSupplier nanos;
  private final ScheduledExecutorService timer;
  private volatile long lastAnswerNanos;

  public RedisReachability(
      KairosRedis redis, Duration interval, Duration bound, String node, LongSupplier nanos) {
    if (interval.compareTo(bound) >= 0) {
      throw new IllegalArgumentException(
          "the ping interval " + interval + " must be below the bound " + bound);
    }
    this.redis = redis;
    this.intervalMs = interval.toMillis();
    this.boundNanos = bound.toNanos();
    this.nanos = nanos;
    this.lastAnswerNanos = nanos.getAsLong();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "kairos-redis-reachability-" + node);
              thread.setDaemon(true);
              return thread;
            });
  }

  public RedisReachability start() {
    lastAnswerNanos = nanos.getAsLong();
    timer.scheduleWithFixedDelay(this::ping, 0, intervalMs, TimeUnit.MILLISECONDS);
    return this;
  }

  /** True while a PING answered within the bound. */
  @Override
  public boolean getAsBoolean() {
    return nanos.getAsLong() - lastAnswerNanos < boundNanos;
  }

  private void ping() {
    try {
      // Asynchronous: a partition leaves the command unanswered until Lettuce times it out, and
      // the next pings must go out meanwhile, so an answer is seen as soon as the path heals.
      redis
          .async()
          .ping()
          .thenAccept(pong -> lastAnswerNanos = nanos.getAsLong())
          .exceptionally(failure -> null);
    } catch (RuntimeException e) {
      // Closing, or the connection is gone: nothing answered.
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
