package dev.kairos.mq.executor;

import dev.kairos.core.model.TriggerId;
import dev.kairos.mq.log.RunLog;
import dev.kairos.mq.log.TriggerLogShipper;
import dev.kairos.protocol.message.TriggerMessage;

/**
 * What a handler knows about its run.
 *
 * @param triggerId the trigger being run (unique per attempt)
 * @param jobId the job
 * @param scheduledFireMs the fire time: with the job id, the idempotency key of a run. For a
 *     backfill fire ({@code TriggerId.isBackfill()}) it is the HISTORICAL fire time the run stands
 *     for (taken from the trigger id), not when it was due: the message's own fire time (when the
 *     backfill submitted it) is what the executor holds the trigger until and what the dedup window
 *     counts from
 * @param attempt 1 for the first run, n + 1 for retry n
 * @param params the job parameters
 * @param shardIndex broadcast shard index (0 when not broadcast)
 * @param shardTotal broadcast shard total (1 when not broadcast)
 * @param log the run's log: shipped to the trigger's log as the run goes, and kept (bounded) with
 *     the trigger's result
 */
public record JobContext(
    String triggerId,
    String jobId,
    long scheduledFireMs,
    int attempt,
    String params,
    int shardIndex,
    int shardTotal,
    JobLog log) {

  /** The context of a run of {@code m}, with a fresh log; public so handlers can be unit-tested. */
  public static JobContext of(TriggerMessage m) {
    return of(m, m.params());
  }

  /** The context of a run of {@code m} with its params opened, with a fresh log. */
  static JobContext of(TriggerMessage m, String params) {
    return new JobContext(
        m.triggerId(),
        m.jobId(),
        fireMs(m),
        m.attempt(),
        params,
        m.shardIndex(),
        m.shardTotal(),
        new JobLog(m.triggerId(), m.handler()));
  }

  /**
   * The context of a run of {@code m}, its params opened, whose log is shipped by {@code shipper}.
   */
  static JobContext shipped(TriggerMessage m, String params, TriggerLogShipper shipper) {
    return new JobContext(
        m.triggerId(),
        m.jobId(),
        fireMs(m),
        m.attempt(),
        params,
        m.shardIndex(),
        m.shardTotal(),
        new JobLog(
            m.triggerId(),
            m.handler(),
            new RunLog(m.triggerId(), m.jobId(), m.scheduledFireMs(), shipper.settings()),
            shipper));
  }

  /** The fire time a handler sees: a backfill fire's historical one, else the message's. */
  static long fireMs(TriggerMessage m) {
    if (!m.triggerId().contains(":b")) {
      return m.scheduledFireMs(); // every other form: no parse on the run path
    }
    TriggerId id = new TriggerId(m.triggerId());
    return id.isBackfill() ? id.fireMs() : m.scheduledFireMs();
  }
}
