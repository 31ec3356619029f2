package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.Poll;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The service's own logic with in-memory channels; real HTTP is in {@code WebhookAlarmIT}. */
class AlarmServiceTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final SettableClock clock = new SettableClock(1_700_000_000_000L);
  private final AlarmMetrics metrics = new AlarmMetrics(new SimpleMeterRegistry());
  private AlarmService service;

  @AfterEach
  void close() {
    if (service != null) {
      service.close();
    }
  }

  private AlarmService start(int capacity, AlarmChannel... channels) {
    service =
        new AlarmService(
            new AlarmDeduplicator(Duration.ofMinutes(1), 1000, clock),
            List.of(channels),
            metrics,
            capacity,
            1,
            Duration.ofSeconds(2));
    service.start();
    return service;
  }

  private static Alarm alarm(String subject) {
    return new Alarm(AlarmKind.TRIGGER_FAILED, subject, subject + " failed", Map.of(), 1L);
  }

  /** Records notices; optionally blocks every delivery until released. */
  private static final class Recording implements AlarmChannel {
    final List<AlarmNotice> delivered = new CopyOnWriteArrayList<>();
    final CountDownLatch release;

    Recording(boolean blocking) {
      this.release = new CountDownLatch(blocking ? 1 : 0);
    }

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public void deliver(AlarmNotice notice) {
      try {
        if (!release.await(30, TimeUnit.SECONDS)) {
          throw new AlarmDeliveryException("never released", false);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AlarmDeliveryException("interrupted", false);
      }
      delivered.add(notice);
    }
  }

  /** Fails every attempt, counting them. */
  private static final class Failing implements AlarmChannel {
    final AtomicInteger attempts = new AtomicInteger();
    final boolean retryable;

    Failing(boolean retryable) {
      this.retryable = retryable;
    }

    @Override
    public String name() {
      return "failing";
    }

    @Override
    public RetryPolicy retryPolicy() {
      return new RetryPolicy(2, Duration.ofMillis(10), 2, Duration.ofMillis(50));
    }

    @Override
    public void deliver(AlarmNotice notice) {
      attempts.incrementAndGet();
      throw new AlarmDeliveryException("HTTP 503 from http://127.0.0.1:1/", retryable);
    }
  }

  @Test
  void aSuppressedAlarmReturnsFalseAndIsCounted() {
    Recording channel = new Recording(false);
    start(10, channel);

    assertThat(service.raise(alarm("a"))).isTrue();
    assertThat(service.raise(alarm("a"))).isFalse();
    assertThat(service.raise(alarm("a"))).isFalse();

    // The counter follows deliver()'s return on the delivery thread: wait for it, not the list.
    Poll.until(
        WAIT,
        "one delivery counted",
        () -> metrics.count("kairos.alarm.delivered", "channel", "recording") == 1);
    assertThat(channel.delivered).hasSize(1);
    assertThat(metrics.count("kairos.alarm.raised", "kind", "TRIGGER_FAILED")).isEqualTo(3);
    assertThat(metrics.count("kairos.alarm.suppressed", "kind", "TRIGGER_FAILED")).isEqualTo(2);
    assertThat(metrics.count("kairos.alarm.delivered", "channel", "recording")).isEqualTo(1);
  }

  @Test
  void aFullQueueDropsAndCountsInsteadOfBlocking() {
    Recording channel = new Recording(true);
    start(2, channel);

    for (int i = 0; i < 5; i++) {
      // Returns at once although the only delivery thread is stuck in the channel.
      assertThat(service.raise(alarm("job-" + i))).isTrue();
    }

    assertThat(service.pending()).isEqualTo(2);
    assertThat(metrics.count("kairos.alarm.dropped", "channel", "recording")).isEqualTo(3);
    channel.release.countDown();
    Poll.until(WAIT, "the two accepted deliveries", () -> channel.delivered.size() == 2);
    Poll.until(WAIT, "no pending delivery", () -> service.pending() == 0);
    assertThat(service.raise(alarm("job-9"))).isTrue();
    Poll.until(WAIT, "room again after the queue drained", () -> channel.delivered.size() == 3);
  }

  @Test
  void aRetryableFailureIsRetriedAsThePolicySaysThenGivenUp() {
    Failing channel = new Failing(true);
    start(10, channel);

    service.raise(alarm("a"));

    Poll.until(
        WAIT,
        "the delivery given up",
        () -> metrics.count("kairos.alarm.failed", "channel", "failing") == 1);
    assertThat(channel.attempts).hasValue(3);
    assertThat(metrics.count("kairos.alarm.retries", "channel", "failing")).isEqualTo(2);
    assertThat(service.pending()).isZero();
  }

  @Test
  void aRejectedDeliveryIsNotRetried() {
    Failing channel = new Failing(false);
    start(10, channel);

    service.raise(alarm("a"));

    Poll.until(
        WAIT,
        "the delivery given up",
        () -> metrics.count("kairos.alarm.failed", "channel", "failing") == 1);
    assertThat(channel.attempts).hasValue(1);
    assertThat(metrics.count("kairos.alarm.retries", "channel", "failing")).isZero();
  }

  @Test
  void oneFailingChannelDoesNotStopAnother() {
    Recording good = new Recording(false);
    Failing bad = new Failing(false);
    start(10, bad, good);

    service.raise(alarm("a"));

    Poll.until(WAIT, "delivery on the good channel", () -> good.delivered.size() == 1);
  }

  @Test
  void lifecycle() {
    start(10, new Recording(false));

    assertThatThrownBy(service::start).isInstanceOf(IllegalStateException.class);
    service.close();
    service.close();
    service.raise(alarm("after-close"));
    assertThat(metrics.count("kairos.alarm.dropped", "channel", "recording")).isEqualTo(1);
  }
}
