package dev.kairos.protocol.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.core.calendar.SkippedFire;
import dev.kairos.core.schedule.NextDue;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimBatchTest {

  @Test
  void encodesJobsAndFiresInTheScriptsArgumentLayout() {
    ClaimBatch batch =
        new ClaimBatch(7, 3, 1_000, 600_000)
            .add(
                new JobClaim(
                    "a",
                    900,
                    4,
                    NextDue.at(3_000),
                    List.of(new Fire(900, "n1"), new Fire(2_000, "n2"))))
            .add(new JobClaim("b", 950, 1, NextDue.PARK, List.of(new Fire(950, "n1"))))
            .add(new JobClaim("c", 990, 2, NextDue.REMOVE, List.of()))
            .add(new AdhocClaim("d:5:mx", "d", 5, "n2"));

    assertThat(batch.keys())
        .containsExactly(
            "kairos:{7}:fence", "kairos:{7}:due", "kairos:{7}:nodes", "kairos:{7}:adhoc");
    assertThat(batch.args())
        .containsExactly(
            "3",
            "1000",
            "600000",
            "kairos:{7}:job:",
            "kairos:{7}:trigger:",
            "kairos:{7}:wheel:",
            "kairos:{7}:ended:",
            "10000",
            "kairos:{7}:jobtriggers:",
            "100",
            "3",
            "a",
            "900",
            "3000",
            "4",
            "2",
            "900",
            "n1",
            "2000",
            "n2",
            "b",
            "950",
            "+inf",
            "1",
            "1",
            "950",
            "n1",
            "c",
            "990",
            "remove",
            "2",
            "0",
            "1",
            "kairos:{7}:adhocreq:",
            "d:5:mx",
            "n2");
    assertThat(batch.fireCount()).isEqualTo(3);
  }

  @Test
  void parsesARejectionAndPerJobCounts() {
    ClaimBatch batch =
        new ClaimBatch(0, 2, 0, 1)
            .add(new JobClaim("a", 1, 1, NextDue.at(2), List.of(new Fire(1, "n"))))
            .add(new JobClaim("b", 1, 1, NextDue.at(2), List.of(new Fire(1, "n"))))
            .add(new JobClaim("c", 1, 1, NextDue.at(2), List.of()))
            .add(new AdhocClaim("d:1:mx", "d", 1, "n"))
            .add(new AdhocClaim("e:1:mx", "e", 1, "n"));
    ClaimOutcome rejected = batch.parse(List.of(0L, 5L));
    assertThat(rejected.accepted()).isFalse();
    assertThat(rejected.fence()).isEqualTo(5);

    ClaimOutcome accepted = batch.parse(List.of(1L, 2L, 1L, 3L, -1L, 0L, 1L, 0L));
    assertThat(accepted.accepted()).isTrue();
    assertThat(accepted.claimedFires()).isEqualTo(3);
    assertThat(accepted.casSkips()).isEqualTo(1);
    assertThat(accepted.duplicates()).isEqualTo(1);
    assertThat(accepted.skipped(1)).isTrue();
    assertThat(accepted.perAdhoc()).containsExactly(true, false);
    assertThat(accepted.claimedAdhoc()).isEqualTo(1);
  }

  @Test
  void calendarSkipsFollowTheAdhocSectionOnlyWhenThereAreAny() {
    ClaimBatch batch =
        new ClaimBatch(7, 3, 1_000, 600_000, 5_000)
            .add(new JobClaim("a", 900, 4, NextDue.at(3_000), List.of(new Fire(900, "n1"))))
            .add(
                new JobClaim(
                    "b",
                    950,
                    1,
                    NextDue.at(4_000),
                    List.of(),
                    List.of(new SkippedFire(950, "weekends"), new SkippedFire(2_950, "xmas"))));
    assertThat(batch.skippedCount()).isEqualTo(2);
    assertThat(batch.keys()).hasSize(5).endsWith("kairos:{7}:events");
    assertThat(batch.args())
        .endsWith(
            "0", "kairos:{7}:adhocreq:", "2", "5000", "2", "950", "weekends", "2", "2950", "xmas");
    ClaimOutcome outcome = batch.parse(List.of(1L, 3L, 0L, 1L, 0L, 2L));
    assertThat(outcome.perJob()).containsExactly(1, 0);
    assertThat(outcome.skippedRecorded()).isEqualTo(2);
    assertThat(new ClaimBatch(7, 3, 1_000, 600_000).add(batch.jobs().get(0)).keys()).hasSize(4);
  }

  @Test
  void firesOfAJobMustAscend() {
    assertThatThrownBy(
            () ->
                new JobClaim("a", 1, 1, NextDue.at(5), List.of(new Fire(2, "n"), new Fire(2, "n"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job a");
  }

  @Test
  void aTermBelowOneIsRefused() {
    assertThatThrownBy(() -> new ClaimBatch(0, 0, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
