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

  /**
   * Five expected fires: a started once, b twice (first at 1,020), c claimed with no logged line
   * (the ledger counts it started), d one millisecond early, e never.
   */
  private static final StartLedger.Outcome OUTCOME =
      new StartLedger.Outcome(
          5,
          List.of("e:2000"),
          Map.of("b:1000", List.of(start("b:1000", 1_050), start("b:1000", 1_020))),
          List.of("c:1000"),
          Map.of("a:1000", 1_010L, "b:1000", 1_020L, "c:1000", 1_100L, "d:2000", 1_999L));

  @Test
  void countsEveryFireOfTheOutcome() {
    FireOutcome o = FireOutcome.of(OUTCOME);
    assertThat(o.expected()).isEqualTo(5);
    assertThat(o.started()).isEqualTo(4);
    assertThat(o.missed()).isEqualTo(1);
    assertThat(o.duplicates()).isEqualTo(1);
    assertThat(o.early()).isEqualTo(1);
    assertThat(o.lateness().count()).isEqualTo(4);
    assertThat(o.lateness().negative()).isEqualTo(1);
  }

  @Test
  void aSubsetCountsOnlyItsOwnFires() {
    FireOutcome burst = FireOutcome.of(OUTCOME, List.of("a:1000", "b:1000", "c:1000"));
    assertThat(burst.expected()).isEqualTo(3);
    assertThat(burst.started()).isEqualTo(3);
    assertThat(burst.missed()).isZero();
    assertThat(burst.duplicates()).isEqualTo(1);
    assertThat(burst.early()).isZero();
    assertThat(burst.lateness().max()).isEqualTo(100);

    FireOutcome late = FireOutcome.of(OUTCOME, List.of("d:2000", "e:2000"));
    assertThat(late.started()).isEqualTo(1);
    assertThat(late.missed()).isEqualTo(1);
    assertThat(late.early()).isEqualTo(1);
  }

  @Test
  void theFireTimeIsAfterTheLastColon() {
    assertThat(FireOutcome.fireMs("scale-0000001:1790000000000")).isEqualTo(1_790_000_000_000L);
  }
}
