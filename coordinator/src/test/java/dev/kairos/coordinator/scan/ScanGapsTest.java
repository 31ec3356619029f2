package dev.kairos.coordinator.scan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScanGapsTest {

  private final ScanGaps gaps = new ScanGaps(4, 60_000, 5_000);

  @Test
  void aTermsFirstPassOfAShardForgivesTheWholeGrace() {
    gaps.beginPass(7);
    assertThat(gaps.forgivenMs(2, 1_000_000)).isEqualTo(60_000);
  }

  @Test
  void laterPassesForgiveTheTimeSinceTheShardsLastCompletePassBeyondThePreReadUpToTheGrace() {
    gaps.beginPass(7);
    gaps.completed(2, 1_000_000);
    assertThat(gaps.forgivenMs(2, 1_001_000)).isZero(); // steady state: one interval
    assertThat(gaps.forgivenMs(2, 1_005_000)).isZero(); // the pre-read still covered it
    assertThat(gaps.forgivenMs(2, 1_020_000)).isEqualTo(15_000); // a 20 s outage
    assertThat(gaps.forgivenMs(2, 1_500_000)).isEqualTo(60_000); // capped
    assertThat(gaps.forgivenMs(3, 1_001_000)).as("another shard").isEqualTo(60_000);
  }

  @Test
  void aNewTermForgetsThePassesOfTheOldOne() {
    gaps.beginPass(7);
    gaps.completed(2, 1_000_000);
    gaps.beginPass(7);
    assertThat(gaps.forgivenMs(2, 1_010_000)).isEqualTo(5_000);
    gaps.beginPass(8);
    assertThat(gaps.forgivenMs(2, 1_001_000)).isEqualTo(60_000);
  }

  @Test
  void anOlderCompletionNeverMovesTheMarkBack() {
    gaps.beginPass(7);
    gaps.completed(1, 2_000);
    gaps.completed(1, 1_000);
    assertThat(gaps.forgivenMs(1, 8_000)).isEqualTo(1_000);
  }
}
