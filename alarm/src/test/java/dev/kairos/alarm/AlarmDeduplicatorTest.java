package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.time.SettableClock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AlarmDeduplicatorTest {

  private static final Duration WINDOW = Duration.ofMinutes(10);

  private final SettableClock clock = new SettableClock(1_700_000_000_000L);

  private Alarm failed(String jobId) {
    return new Alarm(AlarmKind.TRIGGER_FAILED, jobId, "job " + jobId + " failed", Map.of(), 0);
  }

  @Test
  void duplicatesInsideTheWindowAreSuppressed() {
    AlarmDeduplicator dedup = new AlarmDeduplicator(WINDOW, 100, clock);

    assertThat(dedup.admit(failed("a"))).map(AlarmNotice::suppressed).contains(0L);
    for (int i = 0; i < 99; i++) {
      clock.advance(Duration.ofSeconds(1));
      assertThat(dedup.admit(failed("a"))).as("duplicate %d", i).isEmpty();
    }
  }

  @Test
  void firstAlarmAfterTheWindowCarriesTheSuppressedCount() {
    AlarmDeduplicator dedup = new AlarmDeduplicator(WINDOW, 100, clock);
    dedup.admit(failed("a"));
    for (int i = 0; i < 5; i++) {
      dedup.admit(failed("a"));
    }

    clock.advance(WINDOW.minusMillis(1));
    assertThat(dedup.admit(failed("a"))).as("one ms before the window ends").isEmpty();
    clock.advance(Duration.ofMillis(1));
    Optional<AlarmNotice> next = dedup.admit(failed("a"));

    assertThat(next).map(AlarmNotice::suppressed).contains(6L);
    assertThat(dedup.admit(failed("a"))).as("the next window has opened").isEmpty();
    clock.advance(WINDOW);
    assertThat(dedup.admit(failed("a"))).map(AlarmNotice::suppressed).contains(1L);
  }

  @Test
  void keysAreIndependent() {
    AlarmDeduplicator dedup = new AlarmDeduplicator(WINDOW, 100, clock);

    assertThat(dedup.admit(failed("a"))).isPresent();
    assertThat(dedup.admit(failed("b"))).isPresent();
    assertThat(
            dedup.admit(new Alarm(AlarmKind.APP_WITHOUT_EXECUTOR, "a", "no executor", Map.of(), 0)))
        .as("same subject, other kind")
        .isPresent();
    assertThat(dedup.admit(failed("a"))).isEmpty();
  }

  @Test
  void rememberedKeysAreBounded() {
    AlarmDeduplicator dedup = new AlarmDeduplicator(WINDOW, 10, clock);

    for (int i = 0; i < 1_000; i++) {
      assertThat(dedup.admit(failed("job-" + i))).isPresent();
    }

    assertThat(dedup.trackedKeys()).isLessThanOrEqualTo(10);
  }

  @Test
  void aSuppressedCountIsForgottenAfterItsRetention() {
    AlarmDeduplicator dedup = new AlarmDeduplicator(WINDOW, 100, Duration.ofMinutes(5), clock);
    dedup.admit(failed("a"));
    dedup.admit(failed("a"));

    clock.advance(WINDOW.plus(Duration.ofMinutes(5)));

    assertThat(dedup.trackedKeys()).isZero();
    assertThat(dedup.admit(failed("a"))).map(AlarmNotice::suppressed).contains(0L);
  }

  @Test
  void aClockSteppingBackKeepsTheWindow() {
    AlarmDeduplicator dedup = new AlarmDeduplicator(WINDOW, 100, clock);
    dedup.admit(failed("a"));

    clock.advance(Duration.ofHours(-1));

    assertThat(dedup.admit(failed("a"))).isEmpty();
  }

  @Test
  void rejectsAnEmptyWindow() {
    assertThatThrownBy(() -> new AlarmDeduplicator(Duration.ZERO, 10, clock))
        .hasMessageContaining("window");
  }
}
