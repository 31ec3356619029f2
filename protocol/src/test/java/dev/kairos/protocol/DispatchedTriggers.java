package dev.kairos.protocol;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.message.TriggerMessage;
import java.util.Map;

/**
 * What a scheduler has written by the time an executor receives a trigger: the trigger's record (as
 * the leader's claim and the node's broker ack leave it) and its job, enabled at the schedule
 * version the fire was claimed under (the start claim drops a trigger whose job is gone, disabled
 * or rescheduled). For executor tests that publish triggers themselves instead of running a node.
 */
public final class DispatchedTriggers {

  private DispatchedTriggers() {}

  /** The record of {@code trigger} in {@code state} (CLAIMED or DISPATCHED), and its job. */
  public static void write(
      KairosRedis redis, RedisKeys keys, TriggerMessage trigger, String state) {
    LiveJobs.put(redis, keys, trigger.jobId());
    redis
        .sync()
        .hset(
            RedisKeys.trigger(keys.shardOf(trigger.jobId()), trigger.triggerId()),
            Map.of(
                "id",
                trigger.triggerId(),
                "jobId",
                trigger.jobId(),
                "fireMs",
                Long.toString(trigger.scheduledFireMs()),
                "state",
                state,
                "scheduleVersion",
                LiveJobs.VERSION,
                "attempt",
                Integer.toString(trigger.attempt())));
  }
}
