package dev.kairos.protocol.lost;

/**
 * One entry of a shard's open-trigger index as the lost-trigger monitor reads it.
 *
 * @param shard the trigger's shard
 * @param triggerId the trigger id
 * @param state DISPATCHED or RUNNING
 * @param slot the executor slot it was sent to (DISPATCHED) or started on (RUNNING); -1 unknown
 * @param executor the executor instance that started it ("" while DISPATCHED)
 * @param sinceMs the last dispatch time (DISPATCHED) or the start time (RUNNING)
 * @param fireMs the scheduled fire time
 * @param jobId the job
 * @param app the job's executor app ("" when the job is gone)
 * @param handler the job's handler ("" when the job is gone)
 * @param cancelRequested whether an operator asked to cancel it
 */
public record OpenTrigger(
    int shard,
    String triggerId,
    String state,
    int slot,
    String executor,
    long sinceMs,
    long fireMs,
    String jobId,
    String app,
    String handler,
    boolean cancelRequested) {

  public boolean running() {
    return "RUNNING".equals(state);
  }
}
