package dev.kairos.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerState;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FinalEventTest {

  @Test
  void anEndedEventCarriesTheWholeRecordUnderTheRecordsFieldNames() {
    Map<String, String> body = new java.util.HashMap<>();
    body.put("type", "TRIGGER_ENDED");
    body.put("triggerId", "j:5");
    body.put("jobId", "j");
    body.put("state", "FAIL");
    body.put("fireMs", "5");
    body.put("attempt", "2");
    body.put("kind", "RETRY");
    body.put("parentTriggerId", "j:4");
    body.put("startedMs", "9");
    body.put("endedMs", "11");
    body.put("ms", "11");
    FinalEvent e = FinalEvent.parse(body).orElseThrow();

    assertThat(e.state()).isEqualTo(TriggerState.FAIL);
    assertThat(e.endedMs()).contains(11L);
    assertThat(e.quietRecord()).isEmpty();
    assertThat(e.carried())
        .contains(
            Map.of(
                "id", "j:5",
                "jobId", "j",
                "state", "FAIL",
                "fireMs", "5",
                "attempt", "2",
                "kind", "RETRY",
                "parentTriggerId", "j:4",
                "startedMs", "9",
                "endedMs", "11"));
  }

  @Test
  void aQuietEndedSuccessNeedsNoReactionAndALateResultIsIgnored() {
    FinalEvent quiet =
        FinalEvent.parse(
                Map.of(
                    "type", "TRIGGER_ENDED",
                    "triggerId", "j:5",
                    "jobId", "j",
                    "state", "SUCCESS",
                    "startedMs", "9",
                    "quiet", "1"))
            .orElseThrow();
    assertThat(quiet.quietRecord())
        .hasValueSatisfying(r -> assertThat(r).containsEntry("startedMs", "9"));
    assertThat(
            FinalEvent.parse(
                Map.of("type", "TRIGGER_LATE", "triggerId", "j:5", "state", "SUCCESS")))
        .isEmpty();
  }

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
  void aQuietSuccessCarriesItsStartTimesAndOnlyASuccessIsEverQuiet() {
    FinalEvent quiet =
        FinalEvent.parse(
                Map.of(
                    "type", "TRIGGER_UPDATED",
                    "triggerId", "j:5",
                    "state", "SUCCESS",
                    "fireMs", "5",
                    "claimedMs", "3",
                    "startedMs", "9",
                    "late", "0",
                    "quiet", "1"))
            .orElseThrow();
    assertThat(quiet.quietRecord())
        .contains(Map.of("fireMs", "5", "claimedMs", "3", "startedMs", "9"));

    FinalEvent failed =
        FinalEvent.parse(
                Map.of(
                    "type", "TRIGGER_UPDATED", "triggerId", "j:5", "state", "FAIL", "quiet", "1"))
            .orElseThrow();
    assertThat(failed.quietRecord()).isEmpty();
    FinalEvent loud =
        FinalEvent.parse(Map.of("type", "TRIGGER_UPDATED", "triggerId", "j:5", "state", "SUCCESS"))
            .orElseThrow();
    assertThat(loud.quietRecord()).isEmpty();
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
    assertThat(
            FinalEvent.parse(
                Map.of(
                    "type",
                    "TRIGGER_ENDED",
                    "triggerId",
                    "j:5",
                    "jobId",
                    "j",
                    "state",
                    "SKIPPED",
                    "endedMs",
                    "6")))
        .as("a fire a calendar skipped gets no reaction")
        .isEmpty();
  }
}
