package dev.kairos.alarm;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.time.KairosClock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One alarm per key ({@link Alarm#key()}) per window, decided in this process alone: the first
 * alarm of a key opens a window of {@code window}; alarms of that key inside it are suppressed and
 * counted; the first alarm after it is let through carrying that count and opens the next window.
 *
 * <p>Memory is bounded: at most {@code maxKeys} keys are remembered (least recently used go first),
 * and a key not raised for {@code window + carryRetention} is forgotten together with its count.
 * Thread-safe: the per-key update is atomic ({@code ConcurrentMap.compute}).
 *
 * <p>Used alone where there is no Redis, and as {@link RedisAlarmWindow}'s fallback when Redis does
 * not answer: then each node keeps its own windows, so a cluster of N nodes may deliver up to N
 * alarms per key per window.
 */
public final class AlarmDeduplicator implements AlarmWindow {

  /** How long a suppressed count waits past its window for the next alarm of its key. */
  public static final Duration DEFAULT_CARRY_RETENTION = Duration.ofHours(24);

  private record KeyWindow(long openedMs, long suppressed) {}

  private final KairosClock clock;
  private final long windowMs;
  private final Cache<String, KeyWindow> windows;

  public AlarmDeduplicator(Duration window, int maxKeys, KairosClock clock) {
    this(window, maxKeys, DEFAULT_CARRY_RETENTION, clock);
  }

  public AlarmDeduplicator(
      Duration window, int maxKeys, Duration carryRetention, KairosClock clock) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive: " + window);
    }
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be positive: " + maxKeys);
    }
    this.clock = clock;
    this.windowMs = window.toMillis();
    this.windows =
        Caffeine.newBuilder()
            .maximumSize(maxKeys)
            .expireAfterWrite(window.plus(carryRetention))
            // Expiry follows the injected clock, so tests move it instead of sleeping.
            .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.nowMs()))
            // Evictions happen on the caller's thread: no hidden pool, deterministic in tests.
            .executor(Runnable::run)
            .build();
  }

  @Override
  public Optional<AlarmNotice> admit(Alarm alarm) {
    long now = clock.nowMs();
    AlarmNotice[] admitted = new AlarmNotice[1];
    windows
        .asMap()
        .compute(
            alarm.key(),
            (key, current) -> {
              // A clock that stepped back (now < openedMs) keeps the window: better one alarm
              // late than a burst of duplicates.
              if (current == null || now - current.openedMs() >= windowMs) {
                admitted[0] = new AlarmNotice(alarm, current == null ? 0 : current.suppressed());
                return new KeyWindow(now, 0);
              }
              return new KeyWindow(current.openedMs(), current.suppressed() + 1);
            });
    return Optional.ofNullable(admitted[0]);
  }

  /** Keys currently remembered (approximate; for tests and metrics). */
  public long trackedKeys() {
    windows.cleanUp();
    return windows.estimatedSize();
  }
}
