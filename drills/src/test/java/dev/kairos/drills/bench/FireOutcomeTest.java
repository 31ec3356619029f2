package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.drills.StartLedger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FireOutcomeTest {

  private static StartLedger.Start start(String id, long ms) {
    return new StartLedger.Start(id, ms, "exec-1-x");
  }

  @Test
  void countsMissedDuplicateEarlyAndClaimedStarts() {
    List<String> expected = List.of("a:1000", "b:1000", "c:1000", "d:2000", "e:2000");
    Map<String, List<StartLedger.Start>> logged =
        Map.of(
            "a:1000", List.of(start("a:1000", 1_010)),
            "b:1000", List.of(start("b:1000", 1_050), start("b:1000", 1_020)),
            "d:2000", List.of(start("d:2000", 1_999)),
            "x:3000", List.of(start("x:3000", 3_000)));
    // c was claimed (record startedMs) but its line was never written; e never started.
    FireOutcome o = FireOutcome.of(expected, logged, Map.of("c:1000", 1_100L));
    assertThat(o.expected()).isEqualTo(5);
    assertThat(o.started()).isEqualTo(4);
    assertThat(o.missed()).isEqualTo(1);
    assertThat(o.duplicates()).isEqualTo(1);
    assertThat(o.early()).isEqualTo(1);
    assertThat(o.firstStartMs()).containsEntry("b:1000", 1_020L).containsEntry("c:1000", 1_100L);
    assertThat(FireOutcome.notLogged(expected, logged)).containsExactly("c:1000", "e:2000");

    FireOutcome burst = o.only(List.of("a:1000", "b:1000", "c:1000"), logged);
    assertThat(burst.expected()).isEqualTo(3);
    assertThat(burst.started()).isEqualTo(3);
    assertThat(burst.duplicates()).isEqualTo(1);
    assertThat(burst.lateness().max()).isEqualTo(100);
  }

  @Test
  void theFireTimeIsAfterTheLastColon() {
    assertThat(FireOutcome.fireMs("scale-0000001:1790000000000")).isEqualTo(1_790_000_000_000L);
  }
}
