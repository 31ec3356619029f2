package dev.kairos.alarm;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.lifecycle.Lifecycle;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's {@link AlarmSink}: de-duplicates per key ({@link AlarmWindow}), then hands the notice
 * to every channel on its own delivery threads ({@code kairos-alarm-<n>}), and to the alarm's own
 * recipients ({@link RecipientChannels}: a failed job's alarm emails and webhooks).
 *
 * <p>{@link #raise} never blocks: each (notice, channel) delivery takes one of {@code capacity}
 * permits, held until it is delivered or given up, retries included; without a free permit the
 * delivery is dropped and counted. Retries wait on the scheduler's timer, not on a sleeping thread,
 * so a dead webhook costs no thread while it backs off.
 */
public final class AlarmService implements AlarmSink, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(AlarmService.class);

  public static final int DEFAULT_CAPACITY = 1000;
  public static final int DEFAULT_THREADS = 2;
  public static final Duration DEFAULT_CLOSE_GRACE = Duration.ofSeconds(5);
  private static final long DROP_WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final AlarmWindow window;
  private final List<AlarmChannel> channels;
  private final RecipientChannels recipientChannels;
  private final AlarmMetrics metrics;
  private final int capacity;
  private final Duration closeGrace;
  private final ScheduledThreadPoolExecutor executor;
  private final Lifecycle lifecycle = new Lifecycle("alarm service");
  private final AtomicInteger pending = new AtomicInteger();
  private final AtomicLong lastDropWarnNanos =
      new AtomicLong(System.nanoTime() - DROP_WARN_EVERY_NANOS);

  public AlarmService(
      AlarmWindow window,
      List<AlarmChannel> channels,
      AlarmMetrics metrics,
      int capacity,
      int threads,
      Duration closeGrace) {
    this(window, channels, RecipientChannels.NONE, metrics, capacity, threads, closeGrace);
  }

  public AlarmService(
      AlarmWindow window,
      List<AlarmChannel> channels,
      RecipientChannels recipientChannels,
      AlarmMetrics metrics,
      int capacity,
      int threads,
      Duration closeGrace) {
    if (capacity < 1 || threads < 1) {
      throw new IllegalArgumentException(
          "capacity and threads must be positive: " + capacity + ", " + threads);
    }
    this.window = window;
    this.channels = List.copyOf(channels);
    this.recipientChannels = recipientChannels;
    this.metrics = metrics;
    this.capacity = capacity;
    this.closeGrace = closeGrace;
    this.executor = new ScheduledThreadPoolExecutor(threads, namedThreads());
    executor.setRemoveOnCancelPolicy(true);
    // Safety: on close, retries still waiting for their back-off are abandoned (and counted), so
    // a dead webhook cannot hold the shutdown for minutes.
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    Gauge.builder("kairos.alarm.pending", pending, AtomicInteger::get)
        .description("alarm deliveries queued, running or waiting to retry")
        .register(metrics.registry());
  }

  private static ThreadFactory namedThreads() {
    AtomicInteger next = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "kairos-alarm-" + next.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  public void start() {
    lifecycle.start();
    log.info(
        "alarm service started channels={} capacity={}",
        channels.stream().map(AlarmChannel::name).toList(),
        capacity);
  }

  public List<AlarmChannel> channels() {
    return channels;
  }

  /** Deliveries queued, running or waiting to retry. */
  public int pending() {
    return pending.get();
  }

  @Override
  public boolean raise(Alarm alarm) {
    metrics.raised(alarm.kind());
    Optional<AlarmNotice> admitted = window.admit(alarm);
    if (admitted.isEmpty()) {
      metrics.suppressed(alarm.kind());
      log.debug("alarm suppressed key={}", alarm.key());
      return false;
    }
    AlarmNotice notice = admitted.get();
    for (AlarmChannel channel : channels) {
      submit(channel, notice);
    }
    if (!alarm.recipients().isEmpty()) {
      for (AlarmChannel channel : recipientChannels.channelsFor(alarm.recipients())) {
        submit(channel, notice);
      }
    }
    return true;
  }

  private void submit(AlarmChannel channel, AlarmNotice notice) {
    if (!lifecycle.isStarted()) {
      drop(channel, notice, "service not running");
      return;
    }
    if (pending.incrementAndGet() > capacity) {
      pending.decrementAndGet();
      drop(channel, notice, "queue full");
      return;
    }
    try {
      executor.execute(() -> attempt(channel, notice, 1));
    } catch (RejectedExecutionException e) {
      pending.decrementAndGet();
      drop(channel, notice, "closing");
    }
  }

  private void attempt(AlarmChannel channel, AlarmNotice notice, int attempt) {
    String key = notice.alarm().key();
    try {
      channel.deliver(notice);
      pending.decrementAndGet();
      metrics.delivered(channel.name());
      log.debug("alarm delivered channel={} key={} attempt={}", channel.name(), key, attempt);
      return;
    } catch (AlarmDeliveryException e) {
      retryOrGiveUp(channel, notice, attempt, e.getMessage(), e.retryable());
    } catch (RuntimeException e) {
      // A channel bug is not a reason to lose the alarm thread; the type alone is logged because
      // an unknown exception's message could carry a URL or a credential.
      retryOrGiveUp(channel, notice, attempt, e.getClass().getName(), true);
    }
  }

  private void retryOrGiveUp(
      AlarmChannel channel, AlarmNotice notice, int attempt, String cause, boolean retryable) {
    RetryPolicy policy = channel.retryPolicy();
    if (retryable && policy.allowsRetryAfter(attempt) && lifecycle.isStarted()) {
      Duration wait = policy.backoffBefore(attempt);
      try {
        executor.schedule(
            () -> attempt(channel, notice, attempt + 1), wait.toMillis(), TimeUnit.MILLISECONDS);
        metrics.retried(channel.name());
        log.debug(
            "alarm delivery failed, will retry channel={} key={} attempt={} retryIn={}ms cause={}",
            channel.name(),
            notice.alarm().key(),
            attempt,
            wait.toMillis(),
            cause);
        return;
      } catch (RejectedExecutionException e) {
        // closing: fall through and give up
      }
    }
    pending.decrementAndGet();
    log.warn(
        "alarm delivery given up channel={} key={} attempts={} retryable={} cause={}",
        channel.name(),
        notice.alarm().key(),
        attempt,
        retryable,
        cause);
    // Counted after the line is written: whoever sees the count (a test, a dashboard) finds it.
    metrics.failed(channel.name());
  }

  private void drop(AlarmChannel channel, AlarmNotice notice, String why) {
    metrics.dropped(channel.name());
    long now = System.nanoTime();
    long last = lastDropWarnNanos.get();
    if (now - last >= DROP_WARN_EVERY_NANOS && lastDropWarnNanos.compareAndSet(last, now)) {
      log.warn(
          "alarm delivery dropped ({}) channel={} key={} capacity={}; further drops this minute"
              + " are only counted (kairos.alarm.dropped)",
          why,
          channel.name(),
          notice.alarm().key(),
          capacity);
    }
  }

  /**
   * Stops accepting alarms, lets queued deliveries finish within the grace period, abandons retries
   * still backing off, and interrupts what is left.
   */
  @Override
  public void close() {
    if (!lifecycle.closeStarted()) {
      executor.shutdownNow();
      return;
    }
    executor.shutdown();
    try {
      if (!executor.awaitTermination(closeGrace.toMillis(), TimeUnit.MILLISECONDS)) {
        int abandoned = executor.shutdownNow().size();
        log.warn("alarm service closed with {} deliveries abandoned", abandoned);
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
