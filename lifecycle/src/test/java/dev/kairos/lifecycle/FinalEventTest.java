package dev.kairos.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerState;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FinalEventTest {

  @Test
  void readsAFinalUpdateWithItsEndTime() {
    FinalEvent e =
        FinalEvent.parse(
                Map.of(
                    "type", "TRIGGER_UPDATED",
                    "triggerId", "j:5",
                    "jobId", "j",
                    "state", "FAIL",
                    "endedMs", "77",
                    "late", "0"))
            .orElseThrow();
    assertThat(e.state()).isEqualTo(TriggerState.FAIL);
    assertThat(e.endedMs()).contains(77L);
  }

  @Test
  void ignoresClaimsNonFinalStatesLateResultsAndJunk() {
    assertThat(
            FinalEvent.parse(
                Map.of("type", "TRIGGER_CLAIMED", "triggerId", "j:5", "state", "CLAIMED")))
        .isEmpty();
    assertThat(
            FinalEvent.parse(
                Map.of("type", "TRIGGER_UPDATED", "triggerId", "j:5", "state", "RUNNING")))
        .isEmpty();
    assertThat(
            FinalEvent.parse(
                Map.of(
                    "type",
                    "TRIGGER_UPDATED",
                    "triggerId",
                    "j:5",
                    "state",
                    "SUCCESS",
                    "late",
                    "1")))
        .isEmpty();
    assertThat(
            FinalEvent.parse(
                Map.of("type", "TRIGGER_UPDATED", "triggerId", "j:5", "state", "NOPE")))
        .isEmpty();
    assertThat(FinalEvent.parse(Map.of("type", "JOB_UPSERTED", "id", "j"))).isEmpty();
  }
}
