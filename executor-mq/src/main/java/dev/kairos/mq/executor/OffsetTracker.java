package dev.kairos.mq.executor;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Which offset of each queue may be committed: everything below the oldest message that still holds
 * a trigger that has neither started nor been reported. A message may carry several triggers (a
 * node sends one message per queue for the triggers of a burst): it is done when all of them are. A
 * delivery waiting for its fire time or behind a running job (SERIAL) holds the offset back, so a
 * crash redelivers it to the slot's next owner. Thread-safe (synchronized: a few operations per
 * message).
 */
final class OffsetTracker {

  /** Per queue: offset → triggers of that message not done yet. */
  private final Map<MessageQueue, NavigableMap<Long, Integer>> pending = new HashMap<>();

  private final Map<MessageQueue, Long> nextOffset = new HashMap<>();
  private int pendingTriggers;

  /** A polled message carrying {@code triggers} triggers enters tracking. */
  synchronized void received(MessageQueue queue, long offset, int triggers) {
    if (triggers > 0) {
      Integer before = pending.computeIfAbsent(queue, q -> new TreeMap<>()).put(offset, triggers);
      pendingTriggers += triggers - (before == null ? 0 : before);
    }
    nextOffset.merge(queue, offset + 1, Math::max);
  }

  /** One trigger of the message started, or its delivery was reported (duplicate, expired, ...). */
  synchronized void done(MessageQueue queue, long offset) {
    NavigableMap<Long, Integer> left = pending.get(queue);
    if (left == null) {
      return;
    }
    Integer n = left.get(offset);
    if (n == null) {
      return;
    }
    pendingTriggers--;
    if (n == 1) {
      left.remove(offset);
    } else {
      left.put(offset, n - 1);
    }
  }

  /** Triggers received that have neither started nor been reported. */
  synchronized int pendingCount() {
    return pendingTriggers;
  }

  /** Offsets to commit (the next offset to consume after a restart), per queue seen. */
  synchronized Map<MessageQueue, Long> committable() {
    Map<MessageQueue, Long> commit = new HashMap<>();
    nextOffset.forEach(
        (queue, next) -> {
          NavigableMap<Long, Integer> left = pending.get(queue);
          commit.put(queue, left == null || left.isEmpty() ? next : left.firstKey());
        });
    return commit;
  }
}
