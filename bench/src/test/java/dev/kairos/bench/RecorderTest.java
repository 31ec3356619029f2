package dev.kairos.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecorderTest {

  @Test
  void nearestRankPercentiles() {
    Recorder r = new Recorder(1000);
    for (int i = 1000; i >= 1; i--) {
      r.record(i);
    }
    long[] s = r.sorted();
    assertThat(Recorder.percentile(s, 50)).isEqualTo(500);
    assertThat(Recorder.percentile(s, 99)).isEqualTo(990);
    assertThat(Recorder.percentile(s, 99.9)).isEqualTo(999);
    assertThat(Recorder.percentile(s, 100)).isEqualTo(1000);
    assertThat(Recorder.percentile(new long[0], 50)).isEqualTo(-1);
  }

  @Test
  void samplesBeyondCapacityAreCountedAsDropped() {
    Recorder r = new Recorder(2);
    r.record(1);
    r.record(2);
    r.record(3);
    assertThat(r.count()).isEqualTo(2);
    assertThat(r.dropped()).isEqualTo(1);
  }
}
