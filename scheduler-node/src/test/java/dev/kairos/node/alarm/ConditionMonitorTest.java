package dev.kairos.node.alarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.devinfra.Poll;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConditionMonitorTest {

  /** Throws on its first look, then counts looks; records the thread it runs on. */
  private static final class Flaky implements ConditionCheck {
    final AtomicInteger looks = new AtomicInteger();
    volatile String thread;

    @Override
    public String name() {
      return "flaky";
    }

    @Override
    public void check() {
      thread = Thread.currentThread().getName();
      if (looks.incrementAndGet() == 1) {
        throw new IllegalStateException("Redis unavailable for a moment");
      }
    }

    @Override
    public boolean active() {
      return looks.get() > 1;
    }
  }

  @Test
  void aFailingCheckIsCountedAndKeepsRunningOnTheNamedThread() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Flaky check = new Flaky();
    ConditionMonitor monitor = new ConditionMonitor(List.of(check), Duration.ofMillis(10), meters);
    monitor.start();
    try {
      Poll.until(
          Duration.ofSeconds(10),
          Duration.ofMillis(5),
          "three looks",
          () -> check.looks.get() >= 3);
      assertThat(meters.counter("kairos.alarm.monitor.errors", "check", "flaky").count())
          .isEqualTo(1);
      assertThat(check.thread).isEqualTo("kairos-alarm-monitor");
      assertThat(meters.get("kairos.alarm.condition.active").tag("check", "flaky").gauge().value())
          .isEqualTo(1);
      assertThatThrownBy(monitor::start).isInstanceOf(IllegalStateException.class);
    } finally {
      monitor.close();
      monitor.close();
    }
  }
}
