package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeepUpTest {

  @Test
  void keepsUpAtTheMissedLimitButNotAboveIt() {
    assertThat(KeepUp.keepsUp(10_000, 10, 9_990, 200)).isTrue();
    assertThat(KeepUp.keepsUp(10_000, 11, 9_989, 200)).isFalse();
  }

  @Test
  void aP99OfOneSecondDoesNotKeepUp() {
    assertThat(KeepUp.keepsUp(1_000, 0, 1_000, 999)).isTrue();
    assertThat(KeepUp.keepsUp(1_000, 0, 1_000, 1_000)).isFalse();
  }

  @Test
  void nothingExpectedOrNothingStartedDoesNotKeepUp() {
    assertThat(KeepUp.keepsUp(0, 0, 0, 0)).isFalse();
    assertThat(KeepUp.keepsUp(100, 0, 0, 0)).isFalse();
  }

  @Test
  void cpuPerFireDividesAndIsNaNWithoutFires() {
    assertThat(KeepUp.microsPerFire(3_000_000, 20_000)).isEqualTo(150.0);
    assertThat(KeepUp.microsPerFire(3_000_000, 0)).isNaN();
  }
}
