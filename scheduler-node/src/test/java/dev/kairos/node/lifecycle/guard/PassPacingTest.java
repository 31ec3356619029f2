package dev.kairos.node.lifecycle.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PassPacingTest {

  private final PassPacing pacing = new PassPacing(5_000, PassPacing.DEFAULT_READS_PER_SECOND);

  @Test
  void aPassOverAFewOpenTriggersWaitsTheInterval() {
    assertThat(pacing.delayAfter(0)).isEqualTo(5_000);
    assertThat(pacing.delayAfter(10_000)).isEqualTo(5_000);
    assertThat(pacing.backsOff(10_000)).isFalse();
  }

  @Test
  void aPassOverABacklogWaitsUntilItsReadsAverageOutToTheRate() {
    assertThat(pacing.delayAfter(10_002)).isEqualTo(5_001);
    assertThat(pacing.backsOff(10_002)).isTrue();
    assertThat(pacing.delayAfter(100_000)).isEqualTo(50_000);
    long read = 100_000;
    assertThat(read * 1_000 / pacing.delayAfter(read))
        .isLessThanOrEqualTo(PassPacing.DEFAULT_READS_PER_SECOND);
  }

  @Test
  void rejectsSettingsThatCannotPace() {
    assertThatThrownBy(() -> new PassPacing(0, 2_000)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PassPacing(5_000, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
