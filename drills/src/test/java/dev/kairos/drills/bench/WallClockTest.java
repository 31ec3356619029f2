package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WallClockTest {

  @Test
  void theNextWholeSecondIsStrictlyLater() {
    assertThat(WallClock.nextWholeSecond(12_000)).isEqualTo(13_000);
    assertThat(WallClock.nextWholeSecond(12_999)).isEqualTo(13_000);
  }

  @Test
  void m1WindowsOpenThirtySecondsBeforeTheNextWholeMinute() {
    assertThat(WallClock.nextMinuteLess(0, 30_000)).isEqualTo(30_000);
    assertThat(WallClock.nextMinuteLess(29_999, 30_000)).isEqualTo(30_000);
    assertThat(WallClock.nextMinuteLess(30_000, 30_000)).isEqualTo(90_000);
    assertThat(WallClock.nextMinuteLess(61_000, 30_000)).isEqualTo(90_000);
  }
}
