package dev.kairos.demo.executor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StartCounterTest {

  @Test
  void countsDistinctTriggersAndExtraStartsSeparately() {
    StartCounter counter = new StartCounter();
    long now = System.currentTimeMillis();
    counter.started("a:1", now);
    counter.started("b:1", now);
    counter.started("a:1", now);

    assertThat(counter.executed()).isEqualTo(2);
    assertThat(counter.duplicateStarts()).isEqualTo(1);
    assertThat(counter.startsOf("a:1")).isEqualTo(2);
    assertThat(counter.startsOf("c:1")).isZero();
  }

  @Test
  void latenessQuantilesUseNearestRank() {
    StartCounter counter = new StartCounter();
    assertThat(counter.latenessMs(0.5)).isEqualTo(-1);
    long now = System.currentTimeMillis();
    // Scheduled 1000 ms .. 1 ms ago: lateness is at least the distance, plus the call's own time.
    for (int i = 1; i <= 1000; i++) {
      counter.started("job:" + i, now - i);
    }
    assertThat(counter.latenessMs(0.5)).isBetween(500L, 600L);
    assertThat(counter.latenessMs(0.99)).isBetween(990L, 1090L);
    assertThat(counter.latenessMs(0.0)).isBetween(1L, 100L);
  }
}
