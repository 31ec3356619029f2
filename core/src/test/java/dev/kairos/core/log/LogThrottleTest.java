package dev.kairos.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogThrottleTest {

  private final AtomicLong nanos = new AtomicLong(1_000);
  private final LogThrottle throttle = new LogThrottle(Duration.ofSeconds(10), nanos::get);

  @Test
  void theFirstOccurrenceLogsAndTheRestOfTheIntervalIsCarriedToTheNextLine() {
    assertThat(throttle.record(3)).isEqualTo(3);
    assertThat(throttle.record(1)).isZero();
    assertThat(throttle.record(5)).isZero();

    nanos.addAndGet(Duration.ofSeconds(10).toNanos() - 1);
    assertThat(throttle.record(1)).as("one nanosecond short of the interval").isZero();

    nanos.addAndGet(1);
    assertThat(throttle.record(2)).isEqualTo(1 + 5 + 1 + 2);
    assertThat(throttle.record(4)).isZero();
  }

  @Test
  void aNonPositiveIntervalIsRefused() {
    assertThatThrownBy(() -> new LogThrottle(Duration.ZERO, nanos::get))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
