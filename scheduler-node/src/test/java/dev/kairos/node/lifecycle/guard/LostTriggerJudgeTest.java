package dev.kairos.node.lifecycle.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.protocol.lost.LostCandidate;
import dev.kairos.protocol.lost.OpenTrigger;
import dev.kairos.protocol.lost.Redispatch;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LostTriggerJudgeTest {

  private static final long NOW = 1_000_000;
  private static final long START_TIMEOUT = 60_000;
  private static final long BACKLOG_LIMIT = 300_000;
  private final LostTriggerJudge judge = new LostTriggerJudge(START_TIMEOUT, BACKLOG_LIMIT);

  private static OpenTrigger dispatched(String id, int slot, long sinceMs) {
    return new OpenTrigger(0, id, "DISPATCHED", slot, "", sinceMs, sinceMs, "j", "app", "h", false);
  }

  private static OpenTrigger running(String id, int slot, String executor) {
    return new OpenTrigger(0, id, "RUNNING", slot, executor, NOW, NOW, "j", "app", "h", false);
  }

  private static SlotInfo slot(int slot, String instance, String... handlers) {
    return new SlotInfo(instance, "host", List.of(handlers), slot, NOW, NOW + 10_000, false);
  }

  /** A lease whose executor has received handler {@code h}'s queue through {@code receivedMs}. */
  private static SlotInfo slotReceivedThrough(int slot, long receivedMs) {
    return new SlotInfo(
        "e",
        "host",
        List.of("h", "other"),
        slot,
        NOW,
        NOW + 10_000,
        false,
        Map.of("h", receivedMs, "other", NOW));
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

  @Test
  void aTriggerStillWaitingInItsSlotsQueueIsNotResentButCountedAsBacklogged() {
    long since = NOW - 120_000; // two start timeouts ago
    Map<String, List<SlotInfo>> live = Map.of("app", List.of(slotReceivedThrough(2, since - 1)));

    LostTriggerJudge.Verdicts v = judge.judge(List.of(dispatched("j:1", 2, since)), live, NOW);

    assertThat(v.redispatch()).isEmpty();
    assertThat(v.backlogged()).isEqualTo(1);
  }

  @Test
  void aTriggerItsExecutorHasReceivedIsResentAfterTheStartTimeout() {
    long since = NOW - START_TIMEOUT;
    Map<String, List<SlotInfo>> live = Map.of("app", List.of(slotReceivedThrough(2, since)));

    LostTriggerJudge.Verdicts v =
        judge.judge(
            List.of(
                dispatched("j:received", 2, since), // progress == sinceMs: received
                dispatched("j:young", 2, NOW - 1_000)), // received too, but not yet due
            live,
            NOW);

    assertThat(v.redispatch()).containsExactly(new Redispatch("j:received", 2));
    assertThat(v.backlogged()).isZero();
  }

  @Test
  void aLeaseWithoutProgressForTheHandlerKeepsTheOldRuleAndResends() {
    long since = NOW - START_TIMEOUT;
    SlotInfo olderExecutor = slot(1, "old", "h"); // no progress field at all
    SlotInfo otherHandlerOnly =
        new SlotInfo("new", "host", List.of("h"), 2, NOW, NOW + 10_000, false, Map.of("other", 0L));
    Map<String, List<SlotInfo>> live = Map.of("app", List.of(olderExecutor, otherHandlerOnly));

    LostTriggerJudge.Verdicts v =
        judge.judge(List.of(dispatched("j:1", 1, since), dispatched("j:2", 2, since)), live, NOW);

    assertThat(v.redispatch()).containsExactly(new Redispatch("j:1", 1), new Redispatch("j:2", 2));
    assertThat(v.backlogged()).isZero();
  }

  @Test
  void aBackloggedTriggerIsResentOnceItHasWaitedTheBacklogLimit() {
    // The executor renews its lease but stopped consuming: its progress froze long ago.
    Map<String, List<SlotInfo>> live = Map.of("app", List.of(slotReceivedThrough(0, 1)));

    LostTriggerJudge.Verdicts v =
        judge.judge(
            List.of(
                dispatched("j:limit", 0, NOW - BACKLOG_LIMIT),
                dispatched("j:almost", 0, NOW - BACKLOG_LIMIT + 1)),
            live,
            NOW);

    assertThat(v.redispatch()).containsExactly(new Redispatch("j:limit", 0));
    assertThat(v.backlogged()).isEqualTo(1);
  }

  @Test
  void progressOfAnotherSlotSaysNothingAboutThisOne() {
    long since = NOW - START_TIMEOUT;
    // Slot 3 has received everything; the trigger waits in slot 1's queue, whose executor has not.
    Map<String, List<SlotInfo>> live =
        Map.of("app", List.of(slotReceivedThrough(1, since - 5_000), slotReceivedThrough(3, NOW)));

    LostTriggerJudge.Verdicts v = judge.judge(List.of(dispatched("j:1", 1, since)), live, NOW);

    assertThat(v.redispatch()).isEmpty();
    assertThat(v.backlogged()).isEqualTo(1);
  }

  @Test
  void aBacklogLimitBelowTheStartTimeoutIsRejected() {
    assertThatThrownBy(() -> new LostTriggerJudge(60_000, 59_999))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("backlogLimitMs");
  }
}
