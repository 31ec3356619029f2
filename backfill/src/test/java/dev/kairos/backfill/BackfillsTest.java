package dev.kairos.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BackfillsTest {

  @Test
  void theIdOfARangeIsDeterministic() {
    assertThat(Backfill.idOf("nightly", 1_000, 2_000))
        .isEqualTo("nightly@1000-2000")
        .isEqualTo(Backfill.idOf("nightly", 1_000, 2_000))
        .isNotEqualTo(Backfill.idOf("nightly", 1_000, 2_001))
        .isNotEqualTo(Backfill.idOf("nightly2", 1_000, 2_000));
  }
}
