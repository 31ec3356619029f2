package dev.kairos.protocol.wheel;

import java.util.List;

/**
 * What one {@code take_due} call did in one shard.
 *
 * @param due triggers now in the node's inflight set, to dispatch
 * @param staleDropped entries dropped as DROPPED_STALE (job gone, disabled or rescheduled)
 * @param alreadyStarted entries removed because their trigger already started or ended
 */
public record TakeResult(List<DueTrigger> due, int staleDropped, int alreadyStarted) {
  public TakeResult {
    due = List.copyOf(due);
  }
}
