package dev.kairos.alarm;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One alarm per key per window across the whole cluster: each key's window lives in Redis ({@link
 * RedisKeys#alarmWindow}, {@code alarm_window.lua}), so however many nodes raise the same alarm —
 * every node runs the cluster-condition checks, and any node's lifecycle worker may read a job's
 * failures — one of them delivers it, and the next window's alarm carries what all of them
 * suppressed. Windows are measured with the caller's clock (the cluster clock on a node).
 *
 * <p>When Redis fails or does not answer within {@code timeout}, the alarm is decided by the local
 * {@code fallback} instead and counted ({@code kairos.alarm.dedup.fallback}): a node that cannot
 * reach Redis may then deliver a duplicate, but never loses an alarm. The fallback keeps its own
 * windows, which only ever see the alarms decided during outages. Thread-safe.
 */
public final class RedisAlarmWindow implements AlarmWindow {

  private static final Logger log = LoggerFactory.getLogger(RedisAlarmWindow.class);
  private static final LuaScript WINDOW = LuaScript.load(RedisAlarmWindow.class, "alarm_window");
  private static final long FALLBACK_WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  /** Runs {@code alarm_window.lua} on one key: the carried count, or -1 for a duplicate. */
  @FunctionalInterface
  interface SharedWindows {
    CompletionStage<Long> admit(String key, long nowMs);
  }

  private final SharedWindows shared;
  private final AlarmWindow fallback;
  private final KairosClock clock;
  private final long timeoutMs;
  private final AlarmMetrics metrics;
  private final AtomicLong lastFallbackWarnNanos =
      new AtomicLong(System.nanoTime() - FALLBACK_WARN_EVERY_NANOS);

  /**
   * @param window at most one alarm per key is delivered within it
   * @param carryRetention how long a suppressed count waits past its window for the next alarm of
   *     its key; the Redis key expires {@code window + carryRetention} after its last raise
   * @param timeout longest wait for Redis before the alarm is decided by {@code fallback}
   */
  public RedisAlarmWindow(
      KairosRedis redis,
      Duration window,
      Duration carryRetention,
      Duration timeout,
      KairosClock clock,
      AlarmWindow fallback,
      AlarmMetrics metrics) {
    this(scripted(redis, window, carryRetention), timeout, clock, fallback, metrics);
  }

  RedisAlarmWindow(
      SharedWindows shared,
      Duration timeout,
      KairosClock clock,
      AlarmWindow fallback,
      AlarmMetrics metrics) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
    this.shared = Objects.requireNonNull(shared, "shared");
    this.timeoutMs = timeout.toMillis();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.fallback = Objects.requireNonNull(fallback, "fallback");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  private static SharedWindows scripted(
      KairosRedis redis, Duration window, Duration carryRetention) {
    Objects.requireNonNull(redis, "redis");
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive: " + window);
    }
    if (carryRetention.isNegative()) {
      throw new IllegalArgumentException("carryRetention must not be negative: " + carryRetention);
    }
    String windowMs = Long.toString(window.toMillis());
    String ttlMs = Long.toString(window.plus(carryRetention).toMillis());
    return (key, nowMs) ->
        WINDOW.evalAsync(
            redis.async(),
            ScriptOutputType.INTEGER,
            new String[] {RedisKeys.alarmWindow(key)},
            Long.toString(nowMs),
            windowMs,
            ttlMs);
  }

  @Override
  public Optional<AlarmNotice> admit(Alarm alarm) {
    long carried;
    try {
      carried =
          shared
              .admit(alarm.key(), clock.nowMs())
              .toCompletableFuture()
              .get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return decideLocally(alarm, "timeout", "no answer within " + timeoutMs + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return decideLocally(alarm, "error", cause.toString());
    } catch (InterruptedException e) {
      // The interrupt stays set for the caller's loop; the alarm is still decided, not lost.
      Thread.currentThread().interrupt();
      return decideLocally(alarm, "interrupted", "interrupted while waiting for Redis");
    } catch (RuntimeException e) {
      // Lettuce may refuse a command before sending it (closed connection, full queue).
      return decideLocally(alarm, "error", e.toString());
    }
    return carried < 0 ? Optional.empty() : Optional.of(new AlarmNotice(alarm, carried));
  }

  private Optional<AlarmNotice> decideLocally(Alarm alarm, String reason, String detail) {
    metrics.dedupFallback(reason);
    long now = System.nanoTime();
    long last = lastFallbackWarnNanos.get();
    if (now - last >= FALLBACK_WARN_EVERY_NANOS && lastFallbackWarnNanos.compareAndSet(last, now)) {
      log.warn(
          "alarm window in Redis unavailable ({}), key={} decided by this node alone: other nodes"
              + " may deliver the same alarm; further fallbacks this minute are only counted"
              + " (kairos.alarm.dedup.fallback)",
          detail,
          alarm.key());
    }
    return fallback.admit(alarm);
  }
}
