package dev.kairos.mq.executor;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Which offset of each queue may be committed: everything below the oldest delivery that has
 * neither started nor been reported. A delivery still waiting behind a running job (SERIAL) holds
 * the offset back, so a crash redelivers it to the slot's next owner. Thread-safe (synchronized: a
 * few operations per message).
 */
final class OffsetTracker {

  private final Map<MessageQueue, NavigableSet<Long>> pending = new HashMap<>();
  private final Map<MessageQueue, Long> nextOffset = new HashMap<>();

  /** A polled message enters tracking. */
  synchronized void received(MessageQueue queue, long offset) {
    pending.computeIfAbsent(queue, q -> new TreeSet<>()).add(offset);
    nextOffset.merge(queue, offset + 1, Math::max);
  }

  /** The message's trigger started, or its delivery was reported (duplicate, expired, ...). */
  synchronized void done(MessageQueue queue, long offset) {
    NavigableSet<Long> set = pending.get(queue);
    if (set != null) {
      set.remove(offset);
    }
  }

  synchronized int pendingCount() {
    return pending.values().stream().mapToInt(NavigableSet::size).sum();
  }

  /** Offsets to commit (the next offset to consume after a restart), per queue seen. */
  synchronized Map<MessageQueue, Long> committable() {
    Map<MessageQueue, Long> commit = new HashMap<>();
    nextOffset.forEach(
        (queue, next) -> {
          NavigableSet<Long> set = pending.get(queue);
          commit.put(queue, set == null || set.isEmpty() ? next : set.first());
        });
    return commit;
  }
}
