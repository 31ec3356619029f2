package dev.kairos.sync.history.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HistoryReaderTest {

  @Test
  void aSkippedFireIsNoEndedRunAndLeavesTheSuccessRateAlone() {
    assertThat(HistoryReader.isFinal("SUCCESS")).isTrue();
    assertThat(HistoryReader.isFinal("FAIL")).isTrue();
    assertThat(HistoryReader.isFinal("SKIPPED")).isFalse();
    assertThat(HistoryReader.isFinal("RUNNING")).isFalse();
    assertThat(HistoryReader.isFinal("FROM_A_NEWER_VERSION")).isFalse();
  }
}
