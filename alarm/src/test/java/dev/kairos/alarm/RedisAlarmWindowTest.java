package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.time.SettableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The fallback path of {@link RedisAlarmWindow}, with the Redis call replaced by what Redis can do
 * to it: answer, fail, refuse the command, or never answer. The shared window itself is exercised
 * against a real Redis Cluster in {@code RedisAlarmWindowIT}.
 */
class RedisAlarmWindowTest {

  private static final Duration WINDOW = Duration.ofMinutes(10);
  private static final Duration TIMEOUT = Duration.ofMillis(50);

  private final SettableClock clock = new SettableClock(1_700_000_000_000L);
  private final AlarmMetrics metrics = new AlarmMetrics(new SimpleMeterRegistry());
  private final AlarmDeduplicator local = new AlarmDeduplicator(WINDOW, 100, clock);
  private final List<Alarm> decidedLocally = new CopyOnWriteArrayList<>();
  private final AlarmWindow recordingLocal =
      alarm -> {
        decidedLocally.add(alarm);
        return local.admit(alarm);
      };

  private static Alarm failed(String jobId) {
    return new Alarm(AlarmKind.TRIGGER_FAILED, jobId, "job " + jobId + " failed", Map.of(), 0);
  }

  private RedisAlarmWindow window(RedisAlarmWindow.SharedWindows shared) {
    return new RedisAlarmWindow(shared, TIMEOUT, clock, recordingLocal, metrics);
  }

  private double fallbacks(String reason) {
    return metrics.count("kairos.alarm.dedup.fallback", "reason", reason);
  }

  @Test
  void redisDecidesWhileItAnswersAndTheLocalWindowsStayUntouched() {
    List<Long> asked = new CopyOnWriteArrayList<>();
    long[] answer = {7};
    RedisAlarmWindow window =
        window(
            (key, nowMs) -> {
              assertThat(key).isEqualTo("TRIGGER_FAILED:a");
              asked.add(nowMs);
              return CompletableFuture.completedFuture(answer[0]);
            });

    assertThat(window.admit(failed("a"))).map(AlarmNotice::suppressed).contains(7L);
    answer[0] = -1;
    clock.advance(Duration.ofSeconds(3));
    assertThat(window.admit(failed("a"))).isEmpty();

    assertThat(asked)
        .as("the caller's clock is what Redis compares")
        .containsExactly(1_700_000_000_000L, 1_700_000_003_000L);
    assertThat(decidedLocally).isEmpty();
    assertThat(fallbacks("error") + fallbacks("timeout") + fallbacks("interrupted")).isZero();
  }

  @Test
  void aFailedRedisCallIsDecidedLocallyAndCounted() {
    RedisAlarmWindow window =
        window(
            (key, nowMs) ->
                CompletableFuture.failedFuture(new IllegalStateException("connection refused")));

    assertThat(window.admit(failed("a")))
        .as("better a duplicate than a lost alarm")
        .map(AlarmNotice::suppressed)
        .contains(0L);
    assertThat(window.admit(failed("a"))).as("the local window holds the duplicate").isEmpty();
    clock.advance(WINDOW);
    assertThat(window.admit(failed("a"))).map(AlarmNotice::suppressed).contains(1L);

    assertThat(decidedLocally).hasSize(3);
    assertThat(fallbacks("error")).isEqualTo(3);
  }

  @Test
  void aCommandRefusedBeforeItIsSentIsDecidedLocally() {
    RedisAlarmWindow window =
        window(
            (key, nowMs) -> {
              throw new IllegalStateException("connection closed");
            });

    assertThat(window.admit(failed("a"))).isPresent();
    assertThat(fallbacks("error")).isEqualTo(1);
  }

  @Test
  void redisThatNeverAnswersIsDecidedLocallyAfterTheTimeout() {
    RedisAlarmWindow window = window((key, nowMs) -> new CompletableFuture<>());

    long began = System.nanoTime();
    assertThat(window.admit(failed("a"))).isPresent();
    long waitedMs = (System.nanoTime() - began) / 1_000_000;

    assertThat(waitedMs)
        .as("waited for the timeout, not longer than it needs")
        .isBetween(TIMEOUT.toMillis(), 10_000L);
    assertThat(fallbacks("timeout")).isEqualTo(1);
    assertThat(window.admit(failed("b"))).as("another key, its own local window").isPresent();
    assertThat(window.admit(failed("a"))).isEmpty();
    assertThat(fallbacks("timeout")).isEqualTo(3);
  }

  @Test
  void anInterruptedCallerGetsADecisionAndKeepsItsInterrupt() {
    RedisAlarmWindow window = window((key, nowMs) -> new CompletableFuture<>());

    Thread.currentThread().interrupt();
    boolean admitted = window.admit(failed("a")).isPresent();
    boolean stillInterrupted = Thread.interrupted();

    assertThat(admitted).isTrue();
    assertThat(stillInterrupted).isTrue();
    assertThat(fallbacks("interrupted")).isEqualTo(1);
  }
}
