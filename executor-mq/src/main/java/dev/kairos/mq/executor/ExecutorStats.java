package dev.kairos.mq.executor;

/**
 * Counters of one executor since start.
 *
 * @param started handler runs started (start claim won)
 * @param duplicates copies reported DUPLICATE
 * @param expired copies reported EXPIRED
 * @param discarded runs reported DISCARDED by the block strategy
 * @param malformed message bodies that could not be read
 * @param errors loop, Redis or broker errors caught and survived
 */
public record ExecutorStats(
    long started, long duplicates, long expired, long discarded, long malformed, long errors) {}
