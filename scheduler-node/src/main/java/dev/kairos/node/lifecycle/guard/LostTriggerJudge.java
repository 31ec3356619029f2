package dev.kairos.node.lifecycle.guard;

import dev.kairos.coordinator.lost.LostCandidate;
import dev.kairos.coordinator.lost.OpenTrigger;
import dev.kairos.coordinator.lost.Redispatch;
import dev.kairos.mq.slot.SlotInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides what the lost-trigger monitor does with the open triggers of one shard, given the live
 * slot leases of their apps. A pure function, so the rules are tested without Redis:
 *
 * <ul>
 *   <li>RUNNING, and its executor holds no live lease of the app (the lease expired, or another
 *       instance took the slot and the executor holds no other) → lost. An executor that moved to
 *       another slot of the app is alive and will report the run itself.
 *   <li>DISPATCHED to a slot that has no live lease hosting the handler → re-dispatch to a live
 *       slot that hosts it (chosen by a stable hash of the job id). When there is none, it waits
 *       (the slot's next owner may drain the queue) until {@code startTimeout} after its last
 *       dispatch, then ends NO_EXECUTOR, so it reaches a final state the retry policy handles
 *       instead of silently expiring with its record.
 *   <li>DISPATCHED to a live slot but not started within {@code startTimeout} of the last dispatch
 *       → re-dispatch to the same slot (the queue or the executor may have lost it; a copy that
 *       arrives after the first one started is reported DUPLICATE).
 *   <li>A trigger whose job is gone (no app) is left to its record's expiry.
 * </ul>
 */
final class LostTriggerJudge {

  /** The verdicts for one shard. */
  record Verdicts(List<Redispatch> redispatch, List<LostCandidate> lost, int noLiveSlot) {}

  private final long startTimeoutMs;

  LostTriggerJudge(long startTimeoutMs) {
    this.startTimeoutMs = startTimeoutMs;
  }

  Verdicts judge(List<OpenTrigger> open, Map<String, List<SlotInfo>> liveSlotsByApp, long nowMs) {
    List<Redispatch> redispatch = new ArrayList<>();
    List<LostCandidate> lost = new ArrayList<>();
    int noLiveSlot = 0;
    for (OpenTrigger t : open) {
      if (t.app().isEmpty()) {
        continue;
      }
      List<SlotInfo> live = liveSlotsByApp.getOrDefault(t.app(), List.of());
      if (t.running()) {
        if (live.stream().noneMatch(s -> s.instanceId().equals(t.executor()))) {
          lost.add(
              new LostCandidate(
                  t.triggerId(),
                  t.executor(),
                  "executor "
                      + t.executor()
                      + " holds no live slot lease of app "
                      + t.app()
                      + " (it ran in slot "
                      + t.slot()
                      + ")"));
        }
        continue;
      }
      List<SlotInfo> hosting = live.stream().filter(s -> s.hosts(t.handler())).toList();
      boolean slotLive = hosting.stream().anyMatch(s -> s.slot() == t.slot());
      if (slotLive) {
        if (nowMs - t.sinceMs() >= startTimeoutMs) {
          redispatch.add(new Redispatch(t.triggerId(), t.slot()));
        }
      } else if (hosting.isEmpty()) {
        if (nowMs - t.sinceMs() >= startTimeoutMs) {
          redispatch.add(new Redispatch(t.triggerId(), Redispatch.NO_EXECUTOR));
        } else {
          noLiveSlot++;
        }
      } else {
        int index = Math.floorMod(spread(t.jobId().hashCode()), hosting.size());
        redispatch.add(new Redispatch(t.triggerId(), hosting.get(index).slot()));
      }
    }
    return new Verdicts(redispatch, lost, noLiveSlot);
  }

  /** String hash codes of similar ids differ in their low bits only; mix them. */
  private static int spread(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    return h;
  }
}
