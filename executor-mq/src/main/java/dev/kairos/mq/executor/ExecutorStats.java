package dev.kairos.mq.executor;

/**
 * Counters of one executor since start, for the whole instance or for one handler ({@link
 * KairosExecutor#stats(String)}; there the instance-wide counters malformed, leaseLost and errors
 * are 0).
 *
 * @param started handler runs started (start claim won)
 * @param duplicates copies reported DUPLICATE (not run: the trigger had started already)
 * @param expired copies reported EXPIRED
 * @param discarded runs reported DISCARDED by the block strategy
 * @param succeeded runs that returned normally
 * @param failed runs that threw, or triggers naming a handler this instance does not host
 * @param timedOut runs interrupted by the job's timeout
 * @param malformed message bodies that could not be read
 * @param leaseLost 1 once the slot lease was lost to another instance
 * @param errors loop, Redis or broker errors caught and survived
 * @param dropped triggers the start claim dropped (DROPPED_STALE): their job was deleted, disabled
 *     or rescheduled after the node sent them
 */
public record ExecutorStats(
    long started,
    long duplicates,
    long expired,
    long discarded,
    long succeeded,
    long failed,
    long timedOut,
    long malformed,
    long leaseLost,
    long errors,
    long dropped) {}
