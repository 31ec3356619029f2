package dev.kairos.node.lifecycle.guard;

import dev.kairos.protocol.lost.LostCandidate;
import dev.kairos.protocol.lost.OpenTrigger;
import dev.kairos.protocol.lost.Redispatch;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

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
 *       → re-dispatch to the same slot, but only when the slot's executor has received its queue
 *       through the dispatch time (the lease's progress for the handler ≥ {@code sinceMs}): then
 *       the message was lost by the broker, or received and not started (a failed start claim, or
 *       waiting behind a block strategy). While progress is below {@code sinceMs} the message is
 *       still waiting in the queue (a backlog): another copy would only queue behind it and be
 *       reported DUPLICATE, so it is left alone and counted. Two exceptions re-send anyway: a lease
 *       without progress for the handler (an executor older than progress: the old rule), and a
 *       wait of {@code backlogLimit} or more since the last dispatch, which bounds the wait when an
 *       executor keeps renewing its lease but stopped consuming (progress frozen). A copy that
 *       arrives after the first one started is reported DUPLICATE.
 *   <li>A trigger whose job is gone (no app) is left to its record's expiry.
 * </ul>
 */
final class LostTriggerJudge {

  /**
   * The verdicts for one shard.
   *
   * @param noLiveSlot DISPATCHED triggers left waiting because no live slot hosts their handler
   * @param backlogged DISPATCHED triggers past the start timeout left waiting because their slot's
   *     executor has not yet received them
   */
  record Verdicts(
      List<Redispatch> redispatch, List<LostCandidate> lost, int noLiveSlot, int backlogged) {}

  private final long startTimeoutMs;
  private final long backlogLimitMs;

  /**
   * @param startTimeoutMs how long after its last dispatch a DISPATCHED trigger on a live slot may
   *     be re-sent, if its executor has received it
   * @param backlogLimitMs how long after its last dispatch it is re-sent in any case; at least
   *     {@code startTimeoutMs}
   */
  LostTriggerJudge(long startTimeoutMs, long backlogLimitMs) {
    if (backlogLimitMs < startTimeoutMs) {
      throw new IllegalArgumentException(
          "backlogLimitMs (" + backlogLimitMs + ") < startTimeoutMs (" + startTimeoutMs + ")");
    }
    this.startTimeoutMs = startTimeoutMs;
    this.backlogLimitMs = backlogLimitMs;
  }

  Verdicts judge(List<OpenTrigger> open, Map<String, List<SlotInfo>> liveSlotsByApp, long nowMs) {
    List<Redispatch> redispatch = new ArrayList<>();
    List<LostCandidate> lost = new ArrayList<>();
    int noLiveSlot = 0;
    int backlogged = 0;
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
      SlotInfo target = hosting.stream().filter(s -> s.slot() == t.slot()).findFirst().orElse(null);
      if (target != null) {
        long waited = nowMs - t.sinceMs();
        if (waited >= backlogLimitMs || (waited >= startTimeoutMs && !stillQueued(t, target))) {
          redispatch.add(new Redispatch(t.triggerId(), t.slot()));
        } else if (waited >= startTimeoutMs) {
          backlogged++;
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
    return new Verdicts(redispatch, lost, noLiveSlot, backlogged);
  }

  /**
   * Whether the trigger's message may still be waiting in its slot's queue: the executor has not
   * received the queue through the last dispatch. A node records the dispatch time after the broker
   * acknowledged the send, so the message was born before it, and a queue is FIFO. (A re-dispatch
   * records it just before publishing: a message sent to the same queue in those milliseconds can
   * make the copy look received a little early; the cost is one copy reported DUPLICATE.) A lease
   * that says nothing about the handler gives no such evidence (false).
   */
  private static boolean stillQueued(OpenTrigger t, SlotInfo target) {
    OptionalLong received = target.receivedThrough(t.handler());
    return received.isPresent() && received.getAsLong() < t.sinceMs();
  }

  /** String hash codes of similar ids differ in their low bits only; mix them. */
  private static int spread(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    return h;
  }
}
