package dev.kairos.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LatenessObjectiveTest {

  @Test
  void roundTripsThroughTheJobHashAndReadsAnOlderHashAsNone() {
    LatenessObjective objective = new LatenessObjective(99.9, 1_000, 3_600_000);
    JobDefinition job =
        JobDefinition.builder("j")
            .app("a")
            .handler("h")
            .cron("* * * * * *")
            .latenessObjective(objective)
            .build();

    Map<String, String> hash = JobHash.toHash(job);
    assertThat(hash).containsEntry("latenessObjective", "99.9:1000:3600000");
    assertThat(JobHash.fromHash(hash).latenessObjective()).contains(objective);

    Map<String, String> none =
        JobHash.toHash(job.toBuilder().latenessObjective(Optional.empty()).build());
    assertThat(none).containsEntry("latenessObjective", "");
    assertThat(JobHash.fromHash(none).latenessObjective()).isEmpty();
    none.remove("latenessObjective");
    assertThat(JobHash.fromHash(none).latenessObjective()).isEmpty();
  }

  @Test
  void refusesAnythingButItsOwnForm() {
    assertThatThrownBy(() -> LatenessObjective.decode("99:1000"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LatenessObjective.decode("p99:1s:1h"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void describesItselfForPeople() {
    assertThat(new LatenessObjective(99, 1000, 3_600_000).describe())
        .isEqualTo("p99 ≤ 1000 ms over 1 h");
    assertThat(new LatenessObjective(99.9, 250, 900_000).describe())
        .isEqualTo("p99.9 ≤ 250 ms over 15 min");
  }
}
