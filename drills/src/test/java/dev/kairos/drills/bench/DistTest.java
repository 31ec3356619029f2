package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistTest {

  @Test
  void percentilesOfOneToOneThousand() {
    List<Long> values = new ArrayList<>();
    for (long v = 1; v <= 1_000; v++) {
      values.add(v);
    }
    Dist d = Dist.of(values);
    assertThat(d.count()).isEqualTo(1_000);
    assertThat(d.p50()).isEqualTo(500);
    assertThat(d.p90()).isEqualTo(900);
    assertThat(d.p99()).isEqualTo(990);
    assertThat(d.max()).isEqualTo(1_000);
  }

  @Test
  void negativeValuesAreCountedAndRecordedAsZero() {
    Dist d = Dist.of(List.of(-5L, 10L));
    assertThat(d.negative()).isEqualTo(1);
    assertThat(d.p50()).isZero();
    assertThat(d.toString()).contains("1 negative, as 0");
  }

  @Test
  void emptyIsAllZero() {
    assertThat(Dist.of(List.of())).isEqualTo(Dist.EMPTY);
  }
}
