package dev.kairos.sync.history;

/** One trigger as PostgreSQL holds it; times in epoch ms, null when the trigger never got there. */
public record TriggerRecord(
    String triggerId,
    String jobId,
    Long fireMs,
    String state,
    Integer attempt,
    String node,
    Long term,
    String executor,
    String slot,
    String message,
    Long claimedMs,
    Long dispatchedMs,
    Long startedMs,
    Long endedMs) {}
