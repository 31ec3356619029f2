package dev.kairos.protocol.wheel;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.RoutingStrategy;

/**
 * A trigger taken off a node's wheel into its inflight set, with what dispatch needs. The params
 * and strategies are the job's CURRENT ones (a params-only update keeps the schedule version and is
 * honoured); {@code attempt} comes from the trigger record.
 */
public record DueTrigger(
    int shard,
    String triggerId,
    String jobId,
    long fireMs,
    String app,
    String handler,
    String params,
    RoutingStrategy routing,
    BlockStrategy block,
    long timeoutMs,
    int attempt,
    int targetSlot) {

  /** {@link #targetSlot} of a trigger routed by its job's strategy. */
  public static final int NO_TARGET_SLOT = -1;

  /** A trigger routed by its job's strategy. */
  public DueTrigger(
      int shard,
      String triggerId,
      String jobId,
      long fireMs,
      String app,
      String handler,
      String params,
      RoutingStrategy routing,
      BlockStrategy block,
      long timeoutMs,
      int attempt) {
    this(
        shard,
        triggerId,
        jobId,
        fireMs,
        app,
        handler,
        params,
        routing,
        block,
        timeoutMs,
        attempt,
        NO_TARGET_SLOT);
  }

  /** Whether a "trigger now" chose the slot: then it goes there or nowhere. */
  public boolean hasTargetSlot() {
    return targetSlot >= 0;
  }
}
