package dev.kairos.coordinator.wheel;

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
    int attempt) {}
