package dev.kairos.mq.executor;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.Range;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the app's cancel set ({@link RedisKeys#cancels}) on a named thread: every {@link
 * #POLL_INTERVAL} one range read of the requests of the last {@link #LOOKBACK}, each handed to
 * {@code onCancel}, which interrupts the run if this instance hosts it (and ignores it otherwise).
 * Reading a window rather than "since last time" means a request that arrived a moment before the
 * run was registered, or while Redis was unreachable, is still seen by a later poll; {@code
 * onCancel} is idempotent. The lookback also tolerates this host's clock being off from the node
 * that wrote the request by less than a minute.
 */
final class CancelWatcher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CancelWatcher.class);

  /** One small read per executor per interval: cheap, and a cancel interrupts within it. */
  static final Duration POLL_INTERVAL = Duration.ofMillis(500);

  static final Duration LOOKBACK = Duration.ofSeconds(60);

  private final KairosRedis redis;
  private final String app;
  private final Consumer<String> onCancel;
  private final LongSupplier wallMs;
  private final Runnable onError;
  private ScheduledExecutorService timer;
  private volatile boolean closed;

  CancelWatcher(
      KairosRedis redis,
      String app,
      Consumer<String> onCancel,
      LongSupplier wallMs,
      Runnable onError) {
    this.redis = redis;
    this.app = app;
    this.onCancel = onCancel;
    this.wallMs = wallMs;
    this.onError = onError;
  }

  void start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "kairos-cancels-" + app);
              thread.setDaemon(true);
              return thread;
            });
    long every = POLL_INTERVAL.toMillis();
    timer.scheduleWithFixedDelay(this::pollOnce, every, every, TimeUnit.MILLISECONDS);
  }

  /** Runs on the watcher thread; survives Redis outages (logged, counted, retried next poll). */
  void pollOnce() {
    try {
      List<String> ids =
          redis
              .sync()
              .zrangebyscore(
                  RedisKeys.cancels(app),
                  Range.create(
                      (double) (wallMs.getAsLong() - LOOKBACK.toMillis()),
                      Double.POSITIVE_INFINITY));
      ids.forEach(onCancel);
    } catch (RuntimeException e) {
      if (closed) {
        // close() interrupts a read in flight: that is the shutdown, not a Redis failure.
        log.debug("cancel watcher of app {} closed during a read", app);
        return;
      }
      onError.run();
      log.warn(
          "reading the cancel requests of app {} failed, will keep polling: {}", app, e.toString());
    }
  }

  @Override
  public void close() {
    closed = true;
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
