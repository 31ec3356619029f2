package dev.kairos.node.lifecycle.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.lost.LostCandidate;
import dev.kairos.coordinator.lost.OpenTrigger;
import dev.kairos.coordinator.lost.Redispatch;
import dev.kairos.mq.slot.SlotInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LostTriggerJudgeTest {

  private static final long NOW = 1_000_000;
  private final LostTriggerJudge judge = new LostTriggerJudge(60_000);

  private static OpenTrigger dispatched(String id, int slot, long sinceMs) {
    return new OpenTrigger(0, id, "DISPATCHED", slot, "", sinceMs, sinceMs, "j", "app", "h", false);
  }

  private static OpenTrigger running(String id, int slot, String executor) {
    return new OpenTrigger(0, id, "RUNNING", slot, executor, NOW, NOW, "j", "app", "h", false);
  }

  private static SlotInfo slot(int slot, String instance, String... handlers) {
    return new SlotInfo(instance, "host", List.of(handlers), slot, NOW, NOW + 10_000, false);
  }

  @Test
  void aRunningTriggerIsLostOnlyWhenItsExecutorHoldsNoLiveLeaseOfTheApp() {
    Map<String, List<SlotInfo>> live =
        Map.of("app", List.of(slot(0, "e-moved", "h"), slot(1, "e-other", "h")));

    LostTriggerJudge.Verdicts v =
        judge.judge(
            List.of(
                running("j:1", 2, "e-dead"), // its slot has no lease
                running("j:2", 1, "e-gone"), // its slot was taken by another instance
                running("j:3", 3, "e-moved"), // the executor now holds slot 0: alive
                running("j:4", 1, "e-other")),
            live,
            NOW);

    assertThat(v.lost())
        .extracting(LostCandidate::triggerId, LostCandidate::executor)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("j:1", "e-dead"),
            org.assertj.core.groups.Tuple.tuple("j:2", "e-gone"));
    assertThat(v.redispatch()).isEmpty();
  }

  @Test
  void aDispatchedTriggerOnADeadSlotGoesToALiveSlotHostingItsHandler() {
    Map<String, List<SlotInfo>> live =
        Map.of("app", List.of(slot(0, "a", "other"), slot(3, "b", "h")));

    LostTriggerJudge.Verdicts v = judge.judge(List.of(dispatched("j:1", 1, NOW)), live, NOW);

    assertThat(v.redispatch()).containsExactly(new Redispatch("j:1", 3));
    assertThat(v.lost()).isEmpty();
  }

  @Test
  void aDispatchedTriggerOnALiveSlotIsResentThereOnlyAfterTheStartTimeout() {
    Map<String, List<SlotInfo>> live = Map.of("app", List.of(slot(2, "a", "h")));

    LostTriggerJudge.Verdicts v =
        judge.judge(
            List.of(dispatched("j:young", 2, NOW - 59_999), dispatched("j:old", 2, NOW - 60_000)),
            live,
            NOW);

    assertThat(v.redispatch()).containsExactly(new Redispatch("j:old", 2));
  }

  @Test
  void withNoLiveSlotForTheHandlerADispatchedTriggerWaitsThenEndsNoExecutor() {
    LostTriggerJudge.Verdicts v =
        judge.judge(
            List.of(dispatched("j:young", 1, NOW - 59_999), dispatched("j:old", 1, NOW - 60_000)),
            Map.of("app", List.of(slot(0, "a", "other"))),
            NOW);

    assertThat(v.redispatch()).containsExactly(new Redispatch("j:old", Redispatch.NO_EXECUTOR));
    assertThat(v.noLiveSlot()).isEqualTo(1);
  }

  @Test
  void triggersOfADeletedJobAreLeftToTheirRecordsExpiry() {
    OpenTrigger orphan =
        new OpenTrigger(0, "j:1", "RUNNING", 0, "e-dead", NOW, NOW, "j", "", "", false);

    LostTriggerJudge.Verdicts v = judge.judge(List.of(orphan), Map.of(), NOW);

    assertThat(v.lost()).isEmpty();
    assertThat(v.redispatch()).isEmpty();
  }
}
