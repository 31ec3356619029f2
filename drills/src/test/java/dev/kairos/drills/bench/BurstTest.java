package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BurstTest {

  @Test
  void firesAreGroupedByTheirInstantWithTheTimeUntilTheLastStarted() {
    List<String> expected = List.of("a:60000", "b:60000", "c:60000", "a:120000", "b:120000");
    Map<String, Long> first =
        Map.of("a:60000", 60_010L, "b:60000", 60_250L, "c:60000", 60_040L, "a:120000", 120_005L);
    List<Burst> bursts = Burst.of(expected, first);
    assertThat(bursts).extracting(Burst::fireMs).containsExactly(60_000L, 120_000L);
    Burst one = bursts.get(0);
    assertThat(one.expected()).isEqualTo(3);
    assertThat(one.started()).isEqualTo(3);
    assertThat(one.missed()).isZero();
    assertThat(one.allStartedAfterMs()).isEqualTo(250);
    assertThat(one.lateness().max()).isEqualTo(250);
    assertThat(one.allStartedAfter()).isEqualTo("250");
    Burst two = bursts.get(1);
    assertThat(two.started()).isEqualTo(1);
    assertThat(two.missed()).isEqualTo(1);
    assertThat(two.allStartedAfterMs()).isEqualTo(-1);
    assertThat(two.allStartedAfter()).isEqualTo("– (1 missed)");
  }

  @Test
  void theLineHasAsManyCellsAsTheHeader() {
    Burst b = Burst.of(List.of("a:60000"), Map.of("a:60000", 60_003L)).get(0);
    String line = b.line(Workload.M1, 1);
    assertThat(line).startsWith("| M1 | 1 | 1970-01-01T00:01:00Z | 1 | 1 | 0 | 3 | 3 | 3 | 3 |");
    long cells = line.chars().filter(c -> c == '|').count();
    for (String headerLine : Burst.header().split("\n")) {
      assertThat(headerLine.chars().filter(c -> c == '|').count()).isEqualTo(cells);
    }
  }
}
